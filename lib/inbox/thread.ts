import { and, asc, eq, sql } from "drizzle-orm";
import { campaigns, emails, mailboxes, replies, sentReplies, users } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { getLeadViews } from "../leads/read-leads";
import { assigneesOf, personName } from "./assign";
import { filesOf } from "./files";
import { shownStatus } from "./send-reply";

/** `from` is null on replies received before 1 Oct 2026. */
export const FROM_SINCE = new Date("2026-10-01T00:00:00Z");

/** Whom a wrong-person reply points to instead (null when it names nobody), with both fields present, and the lead it became. */
export function referralView(v: (typeof replies.$inferSelect)["referral"]) {
  const added = (v as { leadId?: string } | null)?.leadId ?? null;
  return v ? { email: v.email ?? null, name: v.name ?? null, text: v.text, leadId: added } : null;
}

/**
 * The order key of each received reply: a reply comes after the message it answers, even when its
 * Date header (whole seconds, the sender's clock) reads earlier than our send time — the key is pushed
 * past the answered message's.
 */
function replyOrder(
  inbound: (typeof replies.$inferSelect)[],
  outbound: (typeof emails.$inferSelect)[],
  own: (typeof sentReplies.$inferSelect)[],
): Map<string, number> {
  const sentAtOf = new Map<string, number>();
  for (const e of outbound) sentAtOf.set(e.messageId, (e.sentAt ?? e.createdAt).getTime());
  for (const s of own) if (s.messageId) sentAtOf.set(s.messageId, (s.sentAt ?? s.createdAt).getTime());
  const orderOf = new Map<string, number>();
  for (const r of inbound) {
    const answered = [r.inReplyTo, ...r.references]
      .map((id) => (id ? sentAtOf.get(id) : undefined))
      .filter((t): t is number => t !== undefined);
    orderOf.set(r.id, Math.max(r.receivedAt.getTime(), ...answered.map((t) => t + 1)));
  }
  return orderOf;
}

/** A lead's conversation as stored: received replies, our campaign emails (sent or bounced), our replies. */
async function threadRows(ctx: Ctx, leadId: string) {
  const [inbound, outbound, own] = await Promise.all([
    ctx.db
      .select({ r: replies, mailboxEmail: mailboxes.email })
      .from(replies)
      .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
      .where(and(eq(replies.workspaceId, ctx.workspaceId), eq(replies.leadId, leadId))),
    ctx.db
      .select({ e: emails, mailboxEmail: mailboxes.email, campaignName: campaigns.name })
      .from(emails)
      .innerJoin(mailboxes, eq(mailboxes.id, emails.mailboxId))
      .leftJoin(campaigns, eq(campaigns.id, emails.campaignId))
      .where(and(eq(emails.workspaceId, ctx.workspaceId), eq(emails.leadId, leadId), sql`${emails.status} in ('SENT', 'BOUNCED')`))
      .orderBy(asc(emails.createdAt)),
    ctx.db
      .select({ s: sentReplies, mailboxEmail: mailboxes.email, byName: users.name, byEmail: users.email })
      .from(sentReplies)
      .innerJoin(mailboxes, eq(mailboxes.id, sentReplies.mailboxId))
      .leftJoin(users, eq(users.id, sentReplies.sentByUserId))
      .where(and(eq(sentReplies.workspaceId, ctx.workspaceId), eq(sentReplies.leadId, leadId))),
  ]);
  return { inbound, outbound, own };
}

/**
 * GET /replies/thread/<leadId>: the conversation, oldest first — their replies, our campaign emails and
 * our replies (with who sent them from the dashboard) — and who in the team it is assigned to.
 */
export async function getThread(ctx: Ctx, leadId: string) {
  requireAccess(ctx, "read");
  const [lead] = await getLeadViews(ctx.db, ctx.workspaceId, [leadId]);
  if (!lead) throw new NotFoundError("Lead");
  const [{ inbound, outbound, own }, assignees] = await Promise.all([
    threadRows(ctx, leadId),
    assigneesOf(ctx.db, ctx.workspaceId, [leadId]),
  ]);
  const now = ctx.clock.now();
  const attached = await filesOf(ctx.db, { replyIds: inbound.map((x) => x.r.id), sentReplyIds: own.map((x) => x.s.id) });
  const orderOf = replyOrder(
    inbound.map((x) => x.r),
    outbound.map((x) => x.e),
    own.map((x) => x.s),
  );
  const messages = [
    ...inbound.map(({ r, mailboxEmail }) => ({
      id: r.id,
      direction: "inbound" as const,
      timestamp: r.receivedAt.toISOString(),
      subject: r.subject,
      body: r.textBody,
      html: r.htmlBody,
      mailboxEmail,
      from: r.receivedAt >= FROM_SINCE ? r.from : null,
      to: r.to,
      cc: r.cc,
      attachments: attached.get(r.id) ?? [],
      intentClassification: r.intent,
      remindAt: r.remindAt?.toISOString() ?? null,
      starred: r.starred,
      referral: referralView(r.referral),
      returnDate: r.returnDate,
      returnDateText: r.returnDateText,
    })),
    ...outbound.map(({ e, mailboxEmail, campaignName }) => ({
      id: e.id,
      direction: "outbound" as const,
      kind: "campaign" as const,
      timestamp: (e.sentAt ?? e.createdAt).toISOString(),
      subject: e.subject,
      // The text part as sent; null on emails recorded before bodies were kept.
      body: e.bodyText,
      mailboxEmail,
      to: [{ name: null, address: e.leadEmail }],
      cc: [],
      campaign: e.campaignId ? { id: e.campaignId, name: campaignName } : null,
      stepOrder: e.stepOrder,
      status: e.status,
    })),
    ...own.map(({ s, mailboxEmail, byName, byEmail }) => ({
      id: s.id,
      direction: "outbound" as const,
      kind: "reply" as const,
      timestamp: (s.sentAt ?? s.createdAt).toISOString(),
      subject: s.subject,
      body: s.body,
      html: s.html,
      mailboxEmail,
      to: s.to,
      cc: s.cc,
      bcc: s.bcc,
      attachments: attached.get(s.id) ?? [],
      sentBy: s.sentBy,
      // Who sent it from the dashboard (null for an API key, a reply agent or a mail client's answer).
      sentByUser: s.sentByUserId && byEmail ? { userId: s.sentByUserId, name: personName({ name: byName, email: byEmail }) } : null,
      status: shownStatus(s, now),
      error: shownStatus(s, now) === "FAILED" ? (s.error ?? "Not accepted by the mail server within 10 minutes") : null,
    })),
  ].sort((a, b) => (orderOf.get(a.id) ?? Date.parse(a.timestamp)) - (orderOf.get(b.id) ?? Date.parse(b.timestamp)));
  return { lead, assignee: assignees.get(leadId) ?? null, messages };
}
