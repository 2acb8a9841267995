import { sql } from "drizzle-orm";
import type { OutgoingMessage } from "../../mail/sender";
import { recordset, selectRows } from "../../../db/bulk";
import type { DbOrTx } from "../../../db/client";
import { campaignLeads, leads } from "../../../db/schema";
import { LEAD_VARIABLES, MAILBOX_VARIABLES, renderStep, renderSubject, signatureText, tokenNames } from "../../templates/render";
import { appUrl } from "../../env";
import { addOpenPixel, rewriteLinks, unsubscribeUrl } from "../tracking";
import { push } from "./reads";
import type { EarlierEmail } from "./reads";
import type { Mailbox, SendLead, SentBody, Step, Work } from "./types";

/** What an email says: its subject at claim time, its body and MIME parts at send time (one renderer). */

/**
 * The subject a lead's email gets: the main sequence's step 0 its own; follow-ups go in the same thread
 * as `Re: ` + the subject of the first email of the thread (`earlier`: for a subsequence with a thread
 * of its own, only its emails, so its first step has its own subject).
 */
export function subjectFor(step: Step, lead: SendLead, mailbox: Mailbox, earlier: EarlierEmail[], knownCustomFields: string[]): string {
  const first = earlier[0];
  if ((step.stepOrder === 0 && step.subsequenceId === null) || !first)
    return renderSubject(step.subject ?? "", lead, mailbox, { knownCustomFields, spin: { leadId: lead.id, stepId: step.id } });
  return /^re:/i.test(first.subject) ? first.subject : `Re: ${first.subject}`;
}

/**
 * The message as the mail sender takes it, and the body to keep on the email's row: text as sent, HTML
 * without the open pixel and click redirects. HTML only when the step has it (or opens are tracked),
 * never with textOnly; the unsubscribe headers (RFC 8058) when the campaign wants them; files, and
 * inline images only when the body shows their cid. Tracking and unsubscribe links point at the
 * campaign's tracking base, resolved once per campaign per pass (lib/sending/tracking-base.ts).
 */
export function composeMessage(w: Work): { mail: OutgoingMessage; body: SentBody } {
  const { mailbox: m, campaign: c, lead, step, emailId } = w;
  const rendered = renderStep(
    { subject: step.subject, bodyTemplate: step.bodyTemplate, bodyHtmlTemplate: c.textOnly ? null : step.bodyHtmlTemplate },
    lead,
    m,
    { knownCustomFields: w.knownCustomFields, htmlFromText: c.trackOpens && !c.textOnly, spin: { leadId: lead.id, stepId: step.id } },
  );
  // A step written in HTML alone still gets a text part (spam filters mark HTML-only mail down).
  const text = rendered.text.trim() || !rendered.html ? rendered.text : signatureText(rendered.html);
  let html = rendered.html ?? undefined;
  const base = w.trackingBase ?? appUrl();
  if (html && c.trackClicks) html = rewriteLinks(html, emailId, base);
  if (html && c.trackOpens) html = addOpenPixel(html, emailId, base);
  const headers: Record<string, string> = {};
  if (c.unsubscribeHeader) {
    headers["List-Unsubscribe"] = `<${unsubscribeUrl(emailId, base)}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  const shown = `${text}\n${html ?? ""}`;
  const attached = w.files.filter((f) => !f.cid || shown.includes(`cid:${f.cid}`));
  const mail: OutgoingMessage = {
    from: m.senderName ? { name: m.senderName, address: m.email } : m.email,
    to: lead.email,
    subject: w.subject,
    text,
    html,
    messageId: w.messageId,
    inReplyTo: w.references.at(-1),
    references: w.references.length ? w.references : undefined,
    headers,
    attachments: attached.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.data, cid: f.cid ?? undefined })),
  };
  return { mail, body: { text, html: rendered.html } };
}

const BUILTIN_VARIABLES = new Set<string>([...LEAD_VARIABLES, ...MAILBOX_VARIABLES]);
/** knownCustomFields' answers per campaign, for a minute (leads gaining a field show within it). */
const knownCache = new Map<string, { key: string; names: string[]; at: number }>();
const KNOWN_TTL_MS = 60_000;

/** The custom-field names a campaign's templates use (not built-in variables), as a sorted cache key. */
function customNames(steps: Step[]): string[] {
  const names = new Set<string>();
  for (const s of steps)
    for (const t of [s.subject ?? "", s.bodyTemplate, s.bodyHtmlTemplate ?? ""])
      for (const n of tokenNames(t)) if (!BUILTIN_VARIABLES.has(n)) names.add(n);
  return [...names].sort();
}

/**
 * The custom-field names each campaign knows — some lead of the campaign has the field — among the
 * names its steps' templates use: the set preview and the variables check use (lib/campaigns/preview.ts),
 * so a lead without the field gets empty text, not the token. One statement for every campaign of the
 * pass, and none when no template uses a custom field; `exists` stops at the first lead that has it.
 */
export async function knownCustomFields(
  db: DbOrTx,
  campaignIds: string[],
  stepsOf: ReadonlyMap<string, Step[]>,
  now: Date,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const pairs: { campaignId: string; name: string }[] = [];
  const asked = new Map<string, string>();
  for (const id of campaignIds) {
    const names = customNames(stepsOf.get(id) ?? []);
    if (names.length === 0) continue;
    // Answered within the last minute (by the pass's clock) for the same names: reused (a name no lead
    // has would otherwise scan all the campaign's leads on every pass).
    const key = names.join("\u0000");
    const hit = knownCache.get(id);
    const age = hit ? now.getTime() - hit.at : Number.POSITIVE_INFINITY;
    if (hit && hit.key === key && age >= 0 && age < KNOWN_TTL_MS) {
      if (hit.names.length) out.set(id, hit.names);
      continue;
    }
    asked.set(id, key);
    for (const name of names) pairs.push({ campaignId: id, name });
  }
  if (pairs.length === 0) return out;
  const v = recordset("v", { campaignId: campaignLeads.campaignId, name: "text" }, pairs);
  const rows = await selectRows<{ campaignId: string; name: string }>(
    db,
    sql`select ${v.col("campaignId")} as "campaignId", ${v.col("name")} as "name" from ${v.from}
        where exists (select 1 from ${campaignLeads} join ${leads} on ${leads.id} = ${campaignLeads.leadId}
          where ${campaignLeads.campaignId} = ${v.col("campaignId")} and ${leads.customFields} ? ${v.col("name")})`,
  );
  const fresh = new Map<string, string[]>();
  for (const r of rows) push(fresh, r.campaignId, r.name);
  for (const [id, key] of asked) {
    const names = fresh.get(id) ?? [];
    knownCache.set(id, { key, names, at: now.getTime() });
    if (names.length) out.set(id, names);
  }
  return out;
}
