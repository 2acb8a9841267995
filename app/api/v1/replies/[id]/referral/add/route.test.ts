import { beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, leads, replies } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ingestMessage } from "@/lib/inbox/ingest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertEmail, insertMailbox } from "@/test/factories";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as GET_LEAD } from "@/app/api/v1/leads/[id]/route";
import { GET as LIST_REPLIES } from "@/app/api/v1/replies/route";
import { GET as THREAD } from "@/app/api/v1/replies/thread/[leadId]/route";
import { POST as ADD_SUPPRESSIONS } from "@/app/api/v1/suppressions/route";
import { POST } from "./route";

const clock = new ManualClock(new Date("2026-11-20T10:00:00Z"));
let ws: TestWorkspace;
let other: TestWorkspace;
let mb: { id: string; workspaceId: string; email: string };
let campaignId: string;
let samId: string;
const tag = randomBytes(3).toString("hex");
const sam = `sam-${tag}@client.test`;

/** A campaign with a one-mailbox pool that also receives the replies. */
async function campaignWithPool(name: string, mailboxId: string): Promise<string> {
  const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name } })).body;
  await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: [mailboxId] } });
  return c.id;
}

/** Sam answers our campaign email with `body`; the reply goes through ingestion as a received message. */
async function samReplies(body: string): Promise<string> {
  const messageId = `<eml-${randomBytes(4).toString("hex")}@out.test>`;
  await insertEmail(ws.workspaceId, mb.id, { leadId: samId, leadEmail: sam, campaignId, messageId });
  const raw = [
    `From: Sam Stone <${sam}>`,
    `To: ${mb.email}`,
    "Subject: Re: Idea",
    `Message-ID: <r-${randomBytes(4).toString("hex")}@client.test>`,
    `In-Reply-To: ${messageId}`,
    "Date: Fri, 20 Nov 2026 09:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\r\n");
  const r = await ingestMessage(getDb(), clock, mb, await simpleParser(raw), { folder: "INBOX" });
  expect(r?.intent).toBe("WRONG_PERSON");
  return r!.replyId;
}

const add = (id: string, body: Record<string, unknown> = {}, key = ws.fullKey) =>
  call(POST, "POST", `/replies/${id}/referral/add`, { key, params: { id }, body });

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  const m = await insertMailbox(ws.workspaceId, `me-${tag}@ref.test`);
  mb = { id: m.id, workspaceId: ws.workspaceId, email: m.email };
  campaignId = await campaignWithPool("Referrals", m.id);
  const created = await call(CREATE_LEADS, "POST", "/leads", {
    key: ws.fullKey,
    body: { leads: [{ email: sam, firstName: "Sam", lastName: "Stone" }] },
  });
  samId = created.body.leadIds[0];
  await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaignId }, body: { leadIds: [samId] } });
});

describe("POST /replies/{id}/referral/add", () => {
  it("makes the referred person a lead with referrerName/referrerEmail, adds them to the reply's campaign, and merges on a second call", async () => {
    const replyId = await samReplies(
      `Hi,\n\nI'm not the right person for this. Please reach out to Jane Doe (jane.doe-${tag}@acme.test).\n\nSam`,
    );
    const email = `jane.doe-${tag}@acme.test`;
    const listed = (await call(LIST_REPLIES, "GET", "/replies", { key: ws.readKey })).body.replies.find((r: any) => r.id === replyId);
    expect(listed.referral).toMatchObject({ email, name: "Jane Doe" });
    const thread = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: samId } })).body;
    expect(thread.messages.find((m: any) => m.id === replyId).referral).toMatchObject({ email, name: "Jane Doe" });

    const first = await add(replyId);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ email, status: "created", campaign: { result: "assigned", mailboxId: mb.id } });
    const lead = (await call(GET_LEAD, "GET", "", { key: ws.readKey, params: { id: first.body.id } })).body;
    expect(lead).toMatchObject({ email, firstName: "Jane", lastName: "Doe" });
    expect(lead.customFields).toEqual({ referrerName: "Sam Stone", referrerEmail: sam });
    const rows = await getDb().select().from(campaignLeads).where(eq(campaignLeads.leadId, first.body.id));
    expect(rows.map((r) => [r.campaignId, r.status])).toEqual([[campaignId, "ACTIVE"]]);

    // Again: the same lead, merged as POST /leads does for an address it knows; still in the campaign once.
    const again = await add(replyId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      email,
      id: first.body.id,
      status: "updated",
      campaign: { leadId: first.body.id, result: "assigned" },
    });
    expect(await getDb().select().from(campaignLeads).where(eq(campaignLeads.leadId, first.body.id))).toHaveLength(1);

    // Another campaign, named in the body.
    const m2 = await insertMailbox(ws.workspaceId, `two-${tag}@ref.test`);
    const second = await campaignWithPool("Second", m2.id);
    const there = await add(replyId, { campaignId: second });
    expect(there.body.campaign).toMatchObject({ result: "assigned", mailboxId: m2.id });
    expect((await add(replyId, { campaignId: "cmp_nope" })).status).toBe(404);
  });

  it("refuses a suppressed address as POST /leads does: reported, nothing saved, not added", async () => {
    const email = `gone-${tag}@acme.test`;
    await call(ADD_SUPPRESSIONS, "POST", "/suppressions", { key: ws.fullKey, body: { emails: [email] } });
    const replyId = await samReplies(`Wrong person, sorry. Please reach out to ${email} instead.`);
    const r = await add(replyId);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ email, id: null, status: "suppressed", campaign: null });
    expect(await getDb().select().from(leads).where(eq(leads.email, email))).toEqual([]);
    const direct = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email }] } });
    expect(direct.body).toMatchObject({ suppressedEmails: [email], leads: [] });
  });

  it("answers 404 for another workspace's reply or an unknown one, 409 without a referral address, 403 for a read-only key", async () => {
    const replyId = await samReplies(`I'm not the right person, please reach out to jane.doe@acme.test`);
    const [stored] = await getDb().select().from(replies).where(eq(replies.id, replyId));
    expect(stored.referral).toMatchObject({ email: "jane.doe@acme.test" });
    expect((await add(replyId, {}, other.fullKey)).status).toBe(404);
    expect((await add("rep_unknown")).status).toBe(404);
    expect((await add(replyId, {}, ws.readKey)).status).toBe(403);

    // A name but no address, and no referral at all: nothing to add.
    const named = newId("rep");
    const none = newId("rep");
    const base = { workspaceId: ws.workspaceId, mailboxId: mb.id, leadId: samId, campaignId, intent: "WRONG_PERSON" as const };
    await getDb()
      .insert(replies)
      .values([
        {
          ...base,
          id: named,
          messageId: `<${named}@x.test>`,
          receivedAt: clock.now(),
          referral: { name: "Jane Doe", text: "Talk to Jane Doe." },
        },
        { ...base, id: none, messageId: `<${none}@x.test>`, receivedAt: clock.now() },
      ]);
    for (const id of [named, none]) {
      const r = await add(id);
      expect(r.status).toBe(409);
      expect(r.body.error).toMatch(/no referral address/);
    }
  });
});
