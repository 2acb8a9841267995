import { eq, sql } from "drizzle-orm";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mailboxes, mailboxWarmups, warmupMessages } from "../../db/schema";
import { mapLimit } from "../concurrency";
import { newId } from "../ids";
import type { Logger } from "../log";
import { newMessageId } from "../mail/message-id";
import { sendSmtpAs } from "../mailboxes/credentials";
import type { MailboxRow } from "../mailboxes/view";
import { loadSeedPool } from "../placement/seeds";
import { newConversation } from "./content";
import { todayTarget, utcDate } from "../mailboxes/warmup-ramp";
import { jobsEnv } from "../env";

/**
 * The warmup network's sending side. Each warming mailbox sends
 * its day's target, evenly spread over WARMUP_SPREAD_S from its first warmup tick of the UTC day, to a
 * partner: a mailbox of its own workspace and warmupGroup with warmup on, or a seed of its workspace —
 * never a lead, never another group or workspace. A row is written SENDING with its Message-ID before
 * the SMTP conversation, so a crash never sends it twice and the day's count stays right. Planned
 * answers (receive.ts) go out when due, from the mailbox that received the message.
 */

type WarmupRow = typeof mailboxWarmups.$inferSelect;
type MessageRow = typeof warmupMessages.$inferSelect;

/** Seconds one day's volume is spread over (default 10 hours). */
export function spreadSeconds(): number {
  return jobsEnv.warmupSpreadS;
}

/** One warmup sender per mailbox at a time; longer than one SMTP conversation can take. */
const LEASE_MS = 5 * 60_000;
/** SMTP conversations of the warmup job at once. */
const CONCURRENCY = 8;

interface DueMailbox {
  m: MailboxRow;
  w: WarmupRow;
  /** Its own conversations started today (UTC) before this one. */
  sentToday: number;
}

/** When the mailbox's next warmup email of the day is due: the i-th at start + i × spread ÷ target. */
export function nextDueAt(start: Date, sentToday: number, target: number, spreadS = spreadSeconds()): Date | null {
  if (sentToday >= target) return null;
  return new Date(start.getTime() + Math.floor((sentToday * spreadS * 1000) / target));
}

/** Warming mailboxes whose next email is due now, leased; the day's first tick starts the spread. */
async function claimDueMailboxes(db: DbOrTx, now: Date): Promise<DueMailbox[]> {
  const today = utcDate(now);
  const w = warmupMessages;
  const rows = await db
    .select({
      m: mailboxes,
      w: mailboxWarmups,
      sent: sql<number>`(select count(*) from ${w} where ${w.warmingMailboxId} = ${mailboxWarmups.mailboxId}
          and ${w.fromMailboxId} = ${mailboxWarmups.mailboxId} and ${w.day} = ${today} and ${w.status} in ('SENDING', 'SENT'))::int`,
    })
    .from(mailboxWarmups)
    .innerJoin(mailboxes, eq(mailboxes.id, mailboxWarmups.mailboxId))
    .where(
      sql`${mailboxes.warmupStatus} in ('EARLY', 'RAMPING', 'STEADY') and ${mailboxes.loginFailingSince} is null
        and ${mailboxes.autoPausedAt} is null and ${mailboxWarmups.day} = ${today}
        and (${mailboxWarmups.leaseUntil} is null or ${mailboxWarmups.leaseUntil} < ${now.toISOString()}::timestamptz)`,
    );
  const due = rows.filter((r) => {
    const at = nextDueAt(r.w.dayStartedAt ?? now, r.sent, todayTarget(r.w, r.w.dayIndex));
    return at !== null && at <= now;
  });
  if (due.length === 0) return [];
  const leased = await db
    .update(mailboxWarmups)
    .set({
      leaseUntil: new Date(now.getTime() + LEASE_MS),
      dayStartedAt: sql`coalesce(${mailboxWarmups.dayStartedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(
      sql`${mailboxWarmups.mailboxId} = ${anyOf(due.map((d) => d.m.id))}
        and (${mailboxWarmups.leaseUntil} is null or ${mailboxWarmups.leaseUntil} < ${now.toISOString()}::timestamptz)`,
    )
    .returning({ id: mailboxWarmups.mailboxId });
  const ours = new Set(leased.map((r) => r.id));
  return due.filter((d) => ours.has(d.m.id)).map((d) => ({ m: d.m, w: d.w, sentToday: d.sent }));
}

/** A partner: a mailbox of the installation (`id`), or an installation seed of SEED_POOL_FILE (`id` null). */
type Partner = { id: string | null; email: string };

/** The installation seeds of SEED_POOL_FILE; a bad file is logged and leaves them out (the placement tests report it). */
async function poolSeeds(log?: Logger): Promise<Partner[]> {
  try {
    return (await loadSeedPool()).map((s) => ({ id: null, email: s.email }));
  } catch (e) {
    log?.error("warmup: SEED_POOL_FILE left out", { error: String(e) });
    return [];
  }
}

/**
 * Everyone a mailbox may warm with: warming mailboxes of its workspace and group, its workspace's
 * seeds, and the installation's seed pool (SEED_POOL_FILE).
 */
async function partnersOf(db: DbOrTx, senders: MailboxRow[], log?: Logger): Promise<Map<string, Partner[]>> {
  const out = new Map<string, Partner[]>();
  if (!senders.length) return out;
  const pool = await db
    .select({
      id: mailboxes.id,
      email: mailboxes.email,
      workspaceId: mailboxes.workspaceId,
      warmupGroup: mailboxes.warmupGroup,
      isSeed: mailboxes.isSeed,
      warmupStatus: mailboxes.warmupStatus,
    })
    .from(mailboxes)
    .where(
      sql`${mailboxes.workspaceId} = ${anyOf([...new Set(senders.map((s) => s.workspaceId))])} and ${mailboxes.loginFailingSince} is null
        and (${mailboxes.isSeed} or ${mailboxes.warmupStatus} in ('EARLY', 'RAMPING', 'STEADY'))`,
    );
  const installation = await poolSeeds(log);
  for (const s of senders) {
    const mine = pool.filter(
      (p) =>
        p.id !== s.id &&
        p.workspaceId === s.workspaceId &&
        p.email.toLowerCase() !== s.email.toLowerCase() &&
        (p.isSeed || (p.warmupGroup ?? null) === (s.warmupGroup ?? null)),
    );
    const taken = new Set([s.email, ...mine.map((p) => p.email)].map((e) => e.toLowerCase()));
    out.set(s.id, [...mine, ...installation.filter((p) => !taken.has(p.email.toLowerCase()))]);
  }
  return out;
}

/** Sends one warmup row over the sender's SMTP and records the outcome (SENT, or FAILED with the error). */
export async function deliverWarmup(db: DbOrTx, row: MessageRow, from: MailboxRow, now: () => Date): Promise<boolean> {
  try {
    await sendSmtpAs({ db, clock: { now } }, from, {
      from: { name: from.senderName, address: from.email },
      to: row.toEmail,
      subject: row.subject,
      text: row.bodyText,
      messageId: row.messageId,
      inReplyTo: row.inReplyTo ?? undefined,
      references: row.references.length ? row.references : undefined,
    });
    await db.update(warmupMessages).set({ status: "SENT", sentAt: now() }).where(eq(warmupMessages.id, row.id));
    return true;
  } catch (e) {
    await db
      .update(warmupMessages)
      .set({ status: "FAILED", error: String((e as Error).message ?? e).slice(0, 500) })
      .where(eq(warmupMessages.id, row.id));
    return false;
  }
}

/**
 * The partner of a mailbox's n-th conversation of a UTC day: its partners in turn (by address), from a
 * place that depends on the mailbox and the day, so a day's emails spread evenly over the partners
 * (a random pick sent a small day all to one of them) and mailboxes do not all start with the same one.
 */
export function partnerFor<P extends { email: string }>(partners: readonly P[], mailboxId: string, day: string, n: number): P | undefined {
  if (partners.length === 0) return undefined;
  const ordered = [...partners].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  let h = 0;
  for (const ch of `${mailboxId}/${day}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return ordered[(h + n) % ordered.length];
}

/** A new conversation from a due mailbox to its next partner (partnerFor); null when it has none. */
async function startConversation(db: DbOrTx, d: DueMailbox, partners: Partner[], now: () => Date): Promise<boolean | null> {
  const at = now();
  const to = partnerFor(partners, d.m.id, utcDate(at), d.sentToday);
  if (!to) return null;
  const id = newId("wum");
  const content = newConversation(to.email, d.m.senderName ?? d.m.email.split("@")[0]);
  const [row] = await db
    .insert(warmupMessages)
    .values({
      id,
      workspaceId: d.m.workspaceId,
      fromMailboxId: d.m.id,
      toMailboxId: to.id,
      toEmail: to.email,
      warmingMailboxId: d.m.id,
      conversationId: id,
      depth: 0,
      messageId: newMessageId(d.m.email),
      subject: content.subject,
      bodyText: content.body,
      status: "SENDING",
      day: utcDate(at),
      createdAt: at,
    })
    .returning();
  return deliverWarmup(db, row, d.m, now);
}

export interface WarmupSendReport {
  started: number;
  failed: number;
  noPartner: number;
  answered: number;
}

/** Due new conversations: one per due mailbox per pass (the spread keeps them apart). */
export async function sendDueWarmup(db: DbOrTx, now: () => Date, log?: Logger): Promise<Omit<WarmupSendReport, "answered">> {
  const due = await claimDueMailboxes(db, now());
  const report = { started: 0, failed: 0, noPartner: 0 };
  if (!due.length) return report;
  const partners = await partnersOf(
    db,
    due.map((d) => d.m),
    log,
  );
  await mapLimit(due, CONCURRENCY, async (d) => {
    try {
      const ok = await startConversation(db, d, partners.get(d.m.id) ?? [], now);
      if (ok === null) report.noPartner++;
      else if (ok) report.started++;
      else report.failed++;
    } catch (e) {
      report.failed++;
      log?.error("warmup send failed", { mailboxId: d.m.id, error: String(e) });
    } finally {
      await db.update(mailboxWarmups).set({ leaseUntil: null }).where(eq(mailboxWarmups.mailboxId, d.m.id));
    }
  });
  return report;
}

/** Planned answers that are due, claimed (PLANNED → SENDING, SKIP LOCKED) and sent from their mailbox. */
export async function sendDueAnswers(db: DbOrTx, now: () => Date, limit = 200): Promise<number> {
  const at = now();
  const w = warmupMessages;
  const claimed = await db
    .update(w)
    .set({ status: "SENDING", day: utcDate(at) })
    .where(
      sql`${w.id} in (select ${w.id} from ${w} join ${mailboxes} on ${mailboxes.id} = ${w.fromMailboxId}
        where ${w.status} = 'PLANNED' and ${w.dueAt} <= ${at.toISOString()}::timestamptz
          and ${mailboxes.loginFailingSince} is null and ${mailboxes.autoPausedAt} is null
        order by ${w.dueAt} limit ${limit} for update of ${w} skip locked)`,
    )
    .returning();
  if (!claimed.length) return 0;
  const senders = await db
    .select()
    .from(mailboxes)
    .where(sql`${mailboxes.id} = ${anyOf([...new Set(claimed.map((c) => c.fromMailboxId))])}`);
  const byId = new Map(senders.map((s) => [s.id, s]));
  let sent = 0;
  await mapLimit(claimed, CONCURRENCY, async (row) => {
    const from = byId.get(row.fromMailboxId);
    if (from && (await deliverWarmup(db, row, from, now))) sent++;
  });
  return sent;
}
