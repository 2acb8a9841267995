import type { Clock } from "../../clock";
import type { EventName } from "../../events/emit";
import { newEventId, newId } from "../../ids";
import { AUTO_TAG_NAMES } from "../../ai/settings";
import type { DbOrTx } from "../../../db/client";
import type { Mailbox, PreparedReply } from "./intent";
import { type Match, matchReplies } from "./match";
import { addresses, clean, dateOf } from "./parse";
import { type OooPlan, planOutOfOffice } from "./ooo";
import { findReferral } from "../referral";
import type { ReplyPlan, ReplyRow } from "./store";

/**
 * Whom a wrong-person reply points to instead, read from its own text (findReferral); the sender's and
 * the mailbox's addresses are never one. Null when it names nobody.
 */
function referralOf(mb: Mailbox, p: PreparedReply): ReplyRow["referral"] {
  const found = findReferral(p.text, [mb.email, ...(p.from?.address ? [p.from.address] : [])]);
  if (!found) return null;
  return { ...(found.email ? { email: found.email } : {}), ...(found.name ? { name: found.name } : {}), text: found.text };
}

/** The replies row of a prepared message. */
function replyRow(mb: Mailbox, id: string, p: PreparedReply, w: Match | undefined, now: Date, ooo?: OooPlan): ReplyRow {
  const m = p.parsed;
  return {
    id,
    workspaceId: mb.workspaceId,
    mailboxId: mb.id,
    leadId: w?.leadId ?? null,
    campaignId: w?.campaignId ?? null,
    emailId: w?.emailId ?? null,
    messageId: p.messageId,
    inReplyTo: m.inReplyTo ? clean(m.inReplyTo) : null,
    references: p.refs,
    from: p.from,
    to: addresses(m.to),
    cc: addresses(m.cc),
    subject: clean(m.subject ?? ""),
    textBody: p.text,
    htmlBody: typeof m.html === "string" ? clean(m.html) : null,
    receivedAt: dateOf(m, now),
    intent: p.intent,
    isAutoReply: p.automatic,
    folder: p.folder,
    imapUid: p.uid,
    returnDate: ooo?.returnDate?.date ?? null,
    returnDateText: ooo?.returnDate?.text ?? null,
    referral: p.intent === "WRONG_PERSON" ? referralOf(mb, p) : null,
    createdAt: now,
  };
}

/**
 * What storing a matched reply means: email.replied (and email.positive_reply for INTERESTED); its
 * intent tag; an unsubscribe request suppresses the address, stops every sequence and fires
 * lead.unsubscribed with source `reply`; another reply stops the lead's sequence when the campaign
 * says so (checked when written).
 */
function planEffects(plan: ReplyPlan, mb: Mailbox, id: string, p: PreparedReply, w: Match, now: Date): void {
  const ev = (event: EventName, data: Record<string, unknown>) =>
    plan.events.push({ id: newEventId(), replyId: id, workspaceId: mb.workspaceId, event, data, createdAt: now });
  ev("email.replied", { replyId: id, leadId: w.leadId, intentClassification: p.intent });
  if (p.intent === "INTERESTED") ev("email.positive_reply", { replyId: id, leadId: w.leadId });
  const tag = AUTO_TAG_NAMES[p.intent];
  if (tag) plan.tags.push({ replyId: id, leadId: w.leadId, name: tag, id: newId("tag") }); // the id, should the tag be new
  if (p.intent === "UNSUBSCRIBE_REQUEST") {
    ev("lead.unsubscribed", { replyId: id, leadId: w.leadId, leadEmail: w.leadEmail, source: "reply" });
    plan.unsubscribes.set(id, { leadId: w.leadId, email: w.leadEmail });
  } else if (w.campaignId)
    plan.stops.push({
      replyId: id,
      campaignId: w.campaignId,
      leadId: w.leadId,
      automatic: p.automatic,
      outOfOffice: p.intent === "OUT_OF_OFFICE",
    });
}

/**
 * Matches a batch of prepared messages (one read, outside any transaction) and works out what storing
 * them means (planEffects). A Message-ID twice in the batch gets one row.
 */
export async function planReplies(db: DbOrTx, clock: Clock, mb: Mailbox, items: PreparedReply[]): Promise<ReplyPlan> {
  const now = clock.now();
  const who = items.length ? await matchReplies(db, mb, items) : [];
  const ids = items.map(() => newId("rep"));
  const firstOf = new Map<string, number>();
  for (const [i, p] of items.entries()) if (!firstOf.has(p.messageId)) firstOf.set(p.messageId, i);
  const ooo = await planOutOfOffice(db, items, ids, who, (i) => dateOf(items[i].parsed, now));
  const plan: ReplyPlan = { items, ids, who, rows: [], events: [], stops: [], pauses: [], tags: [], unsubscribes: new Map() };
  for (const i of firstOf.values()) {
    plan.rows.push(replyRow(mb, ids[i], items[i], who[i], now, ooo.get(i)));
    const pause = ooo.get(i)?.pause;
    if (pause) plan.pauses.push(pause);
    const w = who[i];
    if (w) planEffects(plan, mb, ids[i], items[i], w, now);
  }
  return plan;
}
