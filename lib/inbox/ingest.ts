import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { ParsedMail, AddressObject } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaigns, emails, leads, replies, sentReplies, type Address } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { newId } from "../ids";
import { addSuppressions } from "../suppressions/suppressions";
import { classifyWithFallback } from "../ai/provider";
import { loadAiSettings } from "../ai/settings";
import { classify, isAutomatic, type Intent } from "./classify";
import { storeReceivedFiles } from "./files";

type Mailbox = { id: string; workspaceId: string; email: string };

function addresses(a: AddressObject | AddressObject[] | undefined): Address[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list.flatMap((x) => x.value).filter((v) => v.address).map((v) => ({ name: v.name || null, address: v.address!.toLowerCase() }));
}

function refsOf(m: ParsedMail): string[] {
  const r = m.references ? (Array.isArray(m.references) ? m.references : [m.references]) : [];
  return [...new Set([...(m.inReplyTo ? [m.inReplyTo] : []), ...r].flatMap((x) => x.split(/\s+/)).filter(Boolean))];
}

/**
 * Finds who a received message is from (spec 2.9 / issue 6 rule 1): first our Message-IDs in
 * In-Reply-To/References, then the sender's address among the workspace's leads, then a colleague at
 * a lead's domain answering a thread this mailbox started. Nothing found: the message is kept unmatched.
 */
async function match(db: DbOrTx, mb: Mailbox, m: ParsedMail, from: Address | null) {
  const refs = refsOf(m);
  if (refs.length) {
    const [e] = await db
      .select({ id: emails.id, leadId: emails.leadId, campaignId: emails.campaignId })
      .from(emails)
      .where(and(eq(emails.workspaceId, mb.workspaceId), inArray(emails.messageId, refs)))
      .orderBy(desc(emails.createdAt))
      .limit(1);
    if (e?.leadId) return { leadId: e.leadId, campaignId: e.campaignId, emailId: e.id };
  }
  if (!from) return undefined;
  const [byAddress] = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.workspaceId, mb.workspaceId), sql`lower(${leads.email}) = ${from.address}`));
  const latestEmail = async (leadId: string) =>
    (await db.select({ id: emails.id, campaignId: emails.campaignId }).from(emails).where(eq(emails.leadId, leadId)).orderBy(desc(emails.createdAt)).limit(1))[0];
  if (byAddress) {
    const e = await latestEmail(byAddress.id);
    return { leadId: byAddress.id, campaignId: e?.campaignId ?? null, emailId: e?.id ?? null };
  }
  const domain = from.address.slice(from.address.lastIndexOf("@") + 1);
  const [colleague] = (await db.execute(sql`
    select e.lead_id, e.campaign_id, e.id from emails e
    where e.workspace_id = ${mb.workspaceId} and e.mailbox_id = ${mb.id} and e.lead_id is not null
      and lower(split_part(e.lead_email, '@', 2)) = ${domain}
    order by e.created_at desc limit 1`)) as unknown as { lead_id: string; campaign_id: string | null; id: string }[];
  if (colleague) return { leadId: colleague.lead_id, campaignId: colleague.campaign_id, emailId: colleague.id };
  return undefined;
}

export interface IngestResult {
  replyId: string;
  leadId: string | null;
  intent: string;
  duplicate: boolean;
}

/**
 * Stores one received message and applies what it means: email.replied (and email.positive_reply for
 * INTERESTED); an unsubscribe request suppresses the address, stops every sequence and fires
 * lead.unsubscribed with source `reply`; a reply stops the lead's sequence when the campaign says so.
 */
export async function ingestMessage(
  db: DbOrTx,
  clock: Clock,
  mb: Mailbox,
  m: ParsedMail,
  opts: { folder: string; uid?: number; uidValidity?: string; /** read once per sync by the caller */ aiClassification?: boolean },
): Promise<IngestResult | undefined> {
  const from = addresses(m.from)[0] ?? null;
  if (from && from.address === mb.email.toLowerCase()) return undefined; // our own message
  const messageId = m.messageId ?? `<uid-${opts.uidValidity ?? "0"}-${opts.uid ?? Date.now()}@${mb.email.split("@")[1]}>`;
  const text = m.text ?? "";
  const automatic = isAutomatic(m.headers as Map<string, unknown>, m.subject ?? "", text);
  // Automatic replies are decided by the rules; a person's reply by the AI provider when enabled.
  const intent: Intent = automatic ? "OUT_OF_OFFICE" : classify({ automatic, text }) === "UNSUBSCRIBE_REQUEST" ? "UNSUBSCRIBE_REQUEST" : await classifyWithFallback(text, opts.aiClassification ?? (await loadAiSettings(db, mb.workspaceId)).aiClassificationEnabled);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const who = await match(tx, mb, m, from);
    const id = newId("rep");
    const inserted = await tx
      .insert(replies)
      .values({
        id,
        workspaceId: mb.workspaceId,
        mailboxId: mb.id,
        leadId: who?.leadId ?? null,
        campaignId: who?.campaignId ?? null,
        emailId: who?.emailId ?? null,
        messageId,
        inReplyTo: m.inReplyTo ?? null,
        references: refsOf(m),
        from,
        to: addresses(m.to),
        cc: addresses(m.cc),
        subject: m.subject ?? "",
        textBody: text,
        htmlBody: typeof m.html === "string" ? m.html : null,
        receivedAt: m.date ?? now,
        intent,
        isAutoReply: automatic,
        folder: opts.folder,
        imapUid: opts.uid ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: replies.id });
    if (inserted.length === 0) return { replyId: id, leadId: who?.leadId ?? null, intent, duplicate: true };
    await storeReceivedFiles(tx, mb.workspaceId, id, m.attachments ?? []);
    if (!who) return { replyId: id, leadId: null, intent, duplicate: false };

    await emitEvent(tx, mb.workspaceId, "email.replied", { replyId: id, leadId: who.leadId, intentClassification: intent }, now);
    if (intent === "INTERESTED") await emitEvent(tx, mb.workspaceId, "email.positive_reply", { replyId: id, leadId: who.leadId }, now);
    const [lead] = await tx.select({ email: leads.email }).from(leads).where(eq(leads.id, who.leadId));
    if (intent === "UNSUBSCRIBE_REQUEST" && lead) {
      await addSuppressions({ workspaceId: mb.workspaceId, actor: { type: "system" }, db: tx, clock }, { emails: [lead.email] }, "unsubscribe_reply");
      await tx.update(campaignLeads).set({ status: "UNSUBSCRIBED", nextSendAt: null }).where(and(eq(campaignLeads.leadId, who.leadId), eq(campaignLeads.status, "ACTIVE")));
      await emitEvent(tx, mb.workspaceId, "lead.unsubscribed", { replyId: id, leadId: who.leadId, leadEmail: lead.email, source: "reply" }, now);
    } else if (who.campaignId) {
      // Stop-on-reply is the campaign's choice; an automatic reply stops it only when stopOnAutoReply.
      const [c] = await tx.select({ stopOnReply: campaigns.stopOnReply, stopOnAutoReply: campaigns.stopOnAutoReply }).from(campaigns).where(eq(campaigns.id, who.campaignId));
      if (c && (automatic ? c.stopOnAutoReply : c.stopOnReply)) {
        await tx.update(campaignLeads).set({ status: "REPLIED", nextSendAt: null }).where(and(eq(campaignLeads.campaignId, who.campaignId), eq(campaignLeads.leadId, who.leadId), eq(campaignLeads.status, "ACTIVE")));
      }
    }
    return { replyId: id, leadId: who.leadId, intent, duplicate: false };
  });
}

/**
 * An answer written directly in a mail client, read from the Sent folder: shown in the conversation as
 * our reply with sentBy HUMAN. Messages we sent ourselves (campaign emails, replies from the app) are
 * recognised by their Message-ID and skipped.
 */
export async function ingestOwnMessage(db: DbOrTx, mb: Mailbox, m: ParsedMail): Promise<string | undefined> {
  const messageId = m.messageId;
  if (!messageId) return undefined;
  const [ours] = await db.select({ id: emails.id }).from(emails).where(and(eq(emails.mailboxId, mb.id), eq(emails.messageId, messageId)));
  if (ours) return undefined;
  const [already] = await db.select({ id: sentReplies.id }).from(sentReplies).where(and(eq(sentReplies.mailboxId, mb.id), eq(sentReplies.messageId, messageId)));
  if (already) return undefined;
  const refs = refsOf(m);
  let leadId: string | null = null;
  let replyId: string | null = null;
  if (refs.length) {
    const [r] = await db.select({ id: replies.id, leadId: replies.leadId }).from(replies).where(and(eq(replies.mailboxId, mb.id), inArray(replies.messageId, refs))).limit(1);
    if (r?.leadId) [leadId, replyId] = [r.leadId, r.id];
    if (!leadId) {
      const [e] = await db.select({ leadId: emails.leadId }).from(emails).where(and(eq(emails.mailboxId, mb.id), inArray(emails.messageId, refs))).limit(1);
      leadId = e?.leadId ?? null;
    }
  }
  const to = addresses(m.to);
  if (!leadId && to.length) {
    const [l] = await db.select({ id: leads.id }).from(leads).where(and(eq(leads.workspaceId, mb.workspaceId), sql`lower(${leads.email}) in ${to.map((a) => a.address)}`)).limit(1);
    leadId = l?.id ?? null;
  }
  if (!leadId) return undefined; // not part of a lead's conversation
  const at = m.date ?? new Date();
  const id = newId("srp");
  await db.insert(sentReplies).values({
    id,
    workspaceId: mb.workspaceId,
    mailboxId: mb.id,
    leadId,
    replyId,
    to,
    cc: addresses(m.cc),
    bcc: addresses(m.bcc),
    subject: m.subject ?? "",
    body: m.text ?? "",
    html: typeof m.html === "string" ? m.html : null,
    status: "SENT",
    sentBy: "HUMAN",
    messageId,
    inReplyTo: m.inReplyTo ?? null,
    references: refs,
    queuedAt: at,
    sentAt: at,
    createdAt: at,
  });
  return id;
}
