import { and, gte, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxWarmups, warmupMessages } from "../../db/schema";
import type { WarmupView } from "./schemas";
import { todayTarget, utcDate } from "./warmup-ramp";

export type WarmupRow = typeof mailboxWarmups.$inferSelect;

/**
 * Warmup counts of some mailboxes per UTC day from `fromDay` on: `sent`, the emails each sent in its
 * own conversations; `replied`, the answers those conversations got from partners. The one definition
 * behind the row's sentToday/repliedToday and the mailbox report's 30-day series.
 */
export async function warmupDailyCounts(
  db: DbOrTx,
  mailboxIds: string[],
  fromDay: string,
): Promise<{ mailboxId: string; day: string; sent: number; replied: number }[]> {
  if (mailboxIds.length === 0) return [];
  const w = warmupMessages;
  return db
    .select({
      mailboxId: w.warmingMailboxId,
      day: w.day,
      sent: sql<number>`(count(*) filter (where ${w.fromMailboxId} = ${w.warmingMailboxId}))::int`,
      replied: sql<number>`(count(*) filter (where ${w.fromMailboxId} <> ${w.warmingMailboxId} and ${w.status} = 'SENT'))::int`,
    })
    .from(w)
    .where(and(inArray(w.warmingMailboxId, mailboxIds), gte(w.day, fromDay), sql`${w.status} in ('SENDING', 'SENT')`))
    .groupBy(w.warmingMailboxId, w.day);
}

/** Today's warmup counts of some mailboxes (UTC day): warmupDailyCounts of today. */
export async function warmupCountsToday(
  db: DbOrTx,
  mailboxIds: string[],
  now: Date,
): Promise<Map<string, { sent: number; replied: number }>> {
  const today = utcDate(now);
  const rows = await warmupDailyCounts(db, mailboxIds, today);
  return new Map(rows.filter((r) => r.day === today).map((r) => [r.mailboxId, { sent: r.sent, replied: r.replied }]));
}

/** The `warmup` object of each mailbox row; a mailbox never started has none. */
export async function warmupViews(db: DbOrTx, mailboxIds: string[], now: Date): Promise<Map<string, WarmupView>> {
  const out = new Map<string, WarmupView>();
  if (mailboxIds.length === 0) return out;
  const [rows, counts] = await Promise.all([
    db.select().from(mailboxWarmups).where(inArray(mailboxWarmups.mailboxId, mailboxIds)),
    warmupCountsToday(db, mailboxIds, now),
  ]);
  for (const r of rows) out.set(r.mailboxId, warmupView(r, counts.get(r.mailboxId)));
  return out;
}

export function warmupView(r: WarmupRow, today: { sent: number; replied: number } = { sent: 0, replied: 0 }): WarmupView {
  return {
    dayIndex: r.dayIndex,
    startingVolume: r.startingVolume,
    dailyIncrease: r.dailyIncrease,
    targetVolume: r.targetVolume,
    replyRateMinPct: r.replyRateMinPct,
    replyRateMaxPct: r.replyRateMaxPct,
    todayTarget: todayTarget(r, r.dayIndex),
    sentToday: today.sent,
    repliedToday: today.replied,
    startedAt: r.startedAt.toISOString(),
    pausedAt: r.pausedAt?.toISOString() ?? null,
  };
}
