import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { replies } from "../../db/schema";
import { issueApiKey } from "../../lib/auth/api-keys";
import { newId } from "../../lib/ids";
import { insertMailbox } from "../factories";
import { call, type TestWorkspace } from "../helpers";
import type { Handler } from "./routes";

const v1 = path.resolve(import.meta.dirname, "../../app/api/v1");

async function api(key: string, method: string, rel: string, body?: unknown, params: Record<string, string> = {}) {
  const mod = (await import(path.join(v1, rel, "route.ts"))) as Record<string, Handler>;
  const r = await call(mod[method], method, `/${rel}`, { key, body, params });
  if (r.status >= 300) throw new Error(`fixture: ${method} /${rel} answered ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function firstId(table: string, workspaceId: string, extra = "true"): Promise<string | undefined> {
  const rows = await selectRows<{ id: string }>(
    getDb(),
    sql`select id from ${sql.identifier(table)} where workspace_id = ${workspaceId} and ${sql.raw(extra)} order by id limit 1`,
  );
  return rows[0]?.id;
}

/** The ids of one of each resource a workspace can own, for path parameters. */
export interface Fixture {
  ids: Record<string, string | undefined>;
  mailboxEmail: string;
}

/**
 * One of each resource in the workspace, made through the API where it can be (so the rows are what
 * users make) and written directly where only mail can make them (replies).
 */
export async function buildFixture(ws: TestWorkspace, tag: string): Promise<Fixture> {
  const k = ws.fullKey;
  // The fixture's webhook points at a closed local port: allowed here, as OUTBOUND_ALLOW_HOSTS allows it in tests.
  process.env.OUTBOUND_ALLOW_HOSTS ??= "127.0.0.1";
  const mailboxEmail = `sender-${tag}@${tag}.example`;
  const mbx = await insertMailbox(ws.workspaceId, mailboxEmail);
  await api(k, "POST", "tags", { name: `tag-${tag}` });
  await api(k, "POST", "leads", { leads: [{ email: `lead-${tag}@buyer.example`, firstName: "Lee" }] });
  await api(k, "POST", "suppressions", { emails: [`nope-${tag}@buyer.example`] });
  await api(k, "POST", "webhooks", { url: "http://127.0.0.1:9/hook", events: ["email.sent"] });
  const campaign = await api(k, "POST", "campaigns", { name: `campaign-${tag}` });
  await api(k, "POST", "campaigns/[id]/steps", { subject: "Hi {{firstName}}", bodyTemplate: "Hello {{firstName}}" }, { id: campaign.id });
  await api(k, "PUT", "campaigns/[id]/mailboxes", { mailboxIds: [mbx.id] }, { id: campaign.id });
  const leadId = (await firstId("leads", ws.workspaceId)) as string;
  await api(k, "POST", "campaigns/[id]/leads", { leadIds: [leadId] }, { id: campaign.id });
  await api(k, "POST", "blacklist/bulk-check", {});
  const tagId = (await firstId("tags", ws.workspaceId)) as string;
  await api(k, "POST", "leads/[id]/tags", { tagId }, { id: leadId });
  await api(k, "POST", "mailboxes/[id]/tags", { tagId }, { id: mbx.id });
  const now = new Date();
  const reply = { workspaceId: ws.workspaceId, mailboxId: mbx.id, receivedAt: now, subject: "Re: Hi", textBody: "Tell me more" };
  await getDb()
    .insert(replies)
    .values([
      {
        ...reply,
        id: newId("rep"),
        leadId,
        campaignId: campaign.id,
        messageId: `<a-${tag}@buyer.example>`,
        from: { name: "Lee", address: `lead-${tag}@buyer.example` },
      },
      {
        ...reply,
        id: newId("rep"),
        leadId: null,
        messageId: `<b-${tag}@other.example>`,
        from: { name: "Someone", address: "someone@other.example" },
      },
    ]);
  const agent = await api(k, "POST", "reply-agents", { name: `agent-${tag}`, tone: "FRIENDLY" });
  const doc = {
    filename: "faq.txt",
    mimeType: "text/plain",
    contentBase64: Buffer.from("Our pricing starts at 10 EUR per seat.").toString("base64"),
  };
  const document = await api(k, "POST", "reply-agents/[id]/documents", doc, { id: agent.id });
  const person = { firstName: "Pia", lastName: "Person", title: "CTO", companyName: "Acme", companyDomain: `acme-${tag}.example` };
  await api(k, "POST", "finder/directory/import", { people: [person] });
  const personId = await firstId("finder_people", ws.workspaceId);
  const job = await api(k, "POST", "finder/enrich", { personIds: [personId] });
  // The key routes get a key of their own (below), so revoking it does not revoke the key the suite calls with.
  const ws1 = ws.workspaceId;
  return {
    mailboxEmail,
    ids: {
      apiKey: (await issueApiKey(getDb(), { workspaceId: ws1, userId: ws.userId, name: "spare", scope: "read" }, now)).id,
      blacklistJob: await firstId("blacklist_jobs", ws1),
      campaign: campaign.id,
      step: await firstId("campaign_steps", ws1),
      lead: leadId,
      mailbox: mbx.id,
      domain: mbx.domainId,
      tag: tagId,
      suppression: await firstId("suppressions", ws1),
      webhook: await firstId("webhooks", ws1),
      reply: await firstId("replies", ws1, "lead_id is not null"),
      unmatched: await firstId("replies", ws1, "lead_id is null"),
      agent: agent.id,
      agentDocument: document.id,
      person: personId,
      enrichJob: job.id,
    },
  };
}

/** Parameters that name no workspace's resource (a provider, a preset class): the same for everyone. */
export const SHARED_PARAMS: Record<string, string> = { provider: "google", class: "GOOGLE" };

/** Microsoft-only routes (tenants, admin consent) take the other provider. */
const MICROSOFT_ONLY = /^mailboxes\/oauth\/\[provider\]\/(tenants|admin-consent)/;

/** Routes about a resource the fixture does not make (a Google service account needs Google's key file). */
const NOT_IN_FIXTURE = [/^mailboxes\/oauth\/\[provider\]\/service-account$/];

/**
 * The fixture id a route's path parameter takes, by the route's folder and the parameter's name;
 * undefined when the fixture has none of that resource (the route may then answer 404 to its owner).
 */
export function paramValue(fx: Fixture, rel: string, name: string): string | undefined {
  if (name === "provider" && MICROSOFT_ONLY.test(rel)) return "microsoft";
  if (name in SHARED_PARAMS) return SHARED_PARAMS[name];
  const i = fx.ids;
  if (name === "email") return fx.mailboxEmail;
  if (name === "leadId") return i.lead;
  if (name === "mailboxId") return i.mailbox;
  if (name === "stepId") return i.step;
  if (name === "tagId") return i.tag;
  if (name === "docId") return i.agentDocument;
  if (name === "jobId") return rel.startsWith("blacklist") ? i.blacklistJob : undefined;
  if (name !== "id") return undefined;
  const byFolder: [RegExp, string | undefined][] = [
    [/^account\/api-keys/, i.apiKey],
    [/^campaigns/, i.campaign],
    [/^deliverability\/mailboxes/, i.mailbox],
    [/^finder\/enrich\/jobs/, i.enrichJob],
    [/^finder\/people/, i.person],
    [/^reply-agents/, i.agent],
    [/^domains/, i.domain],
    [/^leads/, i.lead],
    [/^mailboxes/, i.mailbox],
    [/^replies\/unmatched/, i.unmatched],
    [/^replies\/\[id\]/, i.reply],
    [/^suppressions/, i.suppression],
    [/^webhooks/, i.webhook],
  ];
  return byFolder.find(([re]) => re.test(rel))?.[1];
}

/** An id shaped like `id` (same prefix and length, or an address on the same domain) that no row has. */
export function absentLike(id: string): string {
  // An address (PUT /mailboxes/by-email/{email}) stays a valid address, so it too reaches the lookup.
  if (id.includes("@")) return `absent-${"0".repeat(8)}${id.slice(id.indexOf("@"))}`;
  const cut = id.indexOf("_");
  return cut < 0 ? `x${"0".repeat(Math.max(1, id.length - 1))}` : `${id.slice(0, cut + 1)}${"0".repeat(id.length - cut - 1)}`;
}

/** Whether the fixture has every resource the route's path names, so its owner must not get a 404. */
export function inFixture(fx: Fixture, rel: string, params: string[]): boolean {
  return !NOT_IN_FIXTURE.some((re) => re.test(rel)) && params.every((n) => paramValue(fx, rel, n) !== undefined);
}
