import { createHash, randomInt } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { flagSeen, type ImapClient, moveToInbox, openFolder } from "../mail/imap-ops";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mailboxes, mailboxWarmups, warmupMessages } from "../../db/schema";
import { newId } from "../ids";
import { newMessageId } from "../mail/message-id";
import { answer, replySubject } from "./content";
import { utcDate } from "../mailboxes/warmup-ramp";

/**
 * The warmup network's receiving side, run by the inbox sync with the connection it already keeps:
 * a warmup email found in a mailbox (known by its Message-ID) is marked seen and important, moved
 * out of spam into INBOX, recorded as received, and answered — threaded, from the mailbox that got
 * it, a few minutes later — at a share between the warming mailbox's replyRateMinPct and
 * replyRateMaxPct. Conversations go at most MAX_DEPTH answers deep.
 */

type MessageRow = typeof warmupMessages.$inferSelect;

/** Answers in one conversation after its first email (A → B, B → A, A → B, B → A). */
export const MAX_DEPTH = 3;
/** An answer goes out this many minutes after the message was read. */
const ANSWER_DELAY_MIN = [2, 25] as const;

export interface FolderRef {
  path: string;
  /** INBOX and spam hold what others sent; a Sent folder our own copies. */
  kind: "inbound" | "sent";
}

/** A stable number in [0, n) from a key: the day's reply rate and a conversation's continuation do not flip between syncs. */
function stable(key: string, n: number): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0) % n;
}

/** The share of a warming mailbox's emails answered on a day: fixed for the day, between min and max. */
export function dayRatePct(mailboxId: string, day: string, minPct: number, maxPct: number): number {
  return minPct + stable(`${mailboxId}:${day}`, maxPct - minPct + 1);
}

/**
 * Whether the next first email of a warming mailbox is answered, keeping the day's share at its rate:
 * the n-th decision answers when answered + 1 ≤ round(rate × n).
 */
export function answerNext(decided: number, answered: number, ratePct: number): boolean {
  return answered + 1 <= Math.round((ratePct * (decided + 1)) / 100);
}

/**
 * Handles the warmup emails `found` in one folder of the receiving mailbox: IMAP first (flags, and the
 * move out of spam), then the rows (received, answers planned). A message seen again after its move
 * is already received and is left alone.
 */
export async function receiveWarmup(
  db: DbOrTx,
  now: Date,
  client: ImapClient,
  mb: { id: string },
  folder: FolderRef,
  found: { uid: number; messageId: string }[],
): Promise<number> {
  if (folder.kind !== "inbound" || found.length === 0) return 0;
  const rows = await db
    .select()
    .from(warmupMessages)
    .where(
      and(
        sql`${warmupMessages.messageId} = ${anyOf(found.map((f) => f.messageId))}`,
        eq(warmupMessages.toMailboxId, mb.id),
        isNull(warmupMessages.receivedAt),
      ),
    );
  if (!rows.length) return 0;
  const mine = new Set(rows.map((r) => r.messageId));
  const uids = found.filter((f) => mine.has(f.messageId)).map((f) => f.uid);
  const spam = folder.path.toUpperCase() !== "INBOX";
  await openFolder(client, folder.path); // read-write: flags and the move
  await flagSeen(client, uids);
  if (spam) await moveToInbox(client, uids);
  await db
    .update(warmupMessages)
    .set({ receivedAt: now, receivedFolder: folder.path, rescuedFromSpam: spam })
    .where(
      inArray(
        warmupMessages.id,
        rows.map((r) => r.id),
      ),
    );
  await planAnswers(db, rows, now);
  return rows.length;
}

/** Decides, once per received message, whether it is answered, and plans the answers. */
async function planAnswers(db: DbOrTx, received: MessageRow[], now: Date): Promise<void> {
  const day = utcDate(now);
  const warming = [...new Set(received.map((r) => r.warmingMailboxId))];
  const [settings, counts, senders] = await Promise.all([
    db.select().from(mailboxWarmups).where(inArray(mailboxWarmups.mailboxId, warming)),
    decisionsToday(db, warming, day),
    db
      .select({ id: mailboxes.id, email: mailboxes.email, senderName: mailboxes.senderName })
      .from(mailboxes)
      .where(inArray(mailboxes.id, [...new Set(received.flatMap((r) => [r.fromMailboxId, r.toMailboxId ?? r.fromMailboxId]))])),
  ]);
  const rate = new Map(settings.map((s) => [s.mailboxId, s]));
  const who = new Map(senders.map((s) => [s.id, s]));
  const answers: (typeof warmupMessages.$inferInsert)[] = [];
  for (const r of received) {
    const s = rate.get(r.warmingMailboxId);
    const c = counts.get(r.warmingMailboxId) ?? { decided: 0, answered: 0 };
    let yes: boolean;
    if (r.depth === 0) {
      yes = !!s && answerNext(c.decided, c.answered, dayRatePct(r.warmingMailboxId, day, s.replyRateMinPct, s.replyRateMaxPct));
      c.decided++;
      if (yes) c.answered++;
      counts.set(r.warmingMailboxId, c);
    } else yes = r.depth < MAX_DEPTH && stable(`${r.conversationId}:${r.depth}`, 2) === 0;
    const me = r.toMailboxId ? who.get(r.toMailboxId) : undefined;
    const them = who.get(r.fromMailboxId);
    if (yes && me && them) answers.push(answerOf(r, me, them, now));
  }
  // One insert of the answers and one update of the decisions, not two statements per message.
  if (answers.length) await db.insert(warmupMessages).values(answers);
  const answeredIds = answers.map((a) => a.inReplyTo as string);
  await db
    .update(warmupMessages)
    .set({ answered: sql`${warmupMessages.messageId} = ${anyOf(answeredIds)}` })
    .where(
      inArray(
        warmupMessages.id,
        received.map((r) => r.id),
      ),
    );
}

type Party = { id: string; email: string; senderName: string | null };

function answerOf(r: MessageRow, me: Party, them: Party, now: Date): typeof warmupMessages.$inferInsert {
  const due = new Date(now.getTime() + randomInt(ANSWER_DELAY_MIN[0], ANSWER_DELAY_MIN[1] + 1) * 60_000);
  return {
    id: newId("wum"),
    workspaceId: r.workspaceId,
    fromMailboxId: me.id,
    toMailboxId: them.id,
    toEmail: them.email,
    warmingMailboxId: r.warmingMailboxId,
    conversationId: r.conversationId,
    depth: r.depth + 1,
    messageId: newMessageId(me.email),
    inReplyTo: r.messageId,
    references: [...r.references, r.messageId],
    subject: replySubject(r.subject),
    bodyText: answer(them.email, me.senderName ?? me.email.split("@")[0]),
    status: "PLANNED",
    dueAt: due,
    day: utcDate(due),
    createdAt: now,
  };
}

/** First emails of each warming mailbox received today, and how many of them were answered. */
async function decisionsToday(db: DbOrTx, warming: string[], day: string): Promise<Map<string, { decided: number; answered: number }>> {
  const w = warmupMessages;
  const rows = await db
    .select({
      id: w.warmingMailboxId,
      decided: sql<number>`count(*)::int`,
      answered: sql<number>`(count(*) filter (where ${w.answered}))::int`,
    })
    .from(w)
    .where(
      and(
        inArray(w.warmingMailboxId, warming),
        eq(w.depth, 0),
        sql`${w.answered} is not null`,
        sql`(${w.receivedAt} at time zone 'UTC')::date = ${day}`,
      ),
    )
    .groupBy(w.warmingMailboxId);
  return new Map(rows.map((r) => [r.id, { decided: r.decided, answered: r.answered }]));
}
