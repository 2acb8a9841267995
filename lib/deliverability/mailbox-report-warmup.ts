import { eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mailboxWarmups, warmupDays, warmupMessages } from "../../db/schema";

/**
 * A mailbox's warmup for GET /deliverability/mailboxes/<id>: the ramp shaped as decisions' `warmup`
 * object, and its last 30 UTC days. `sent` counts the conversations it started (depth 0, SENDING or
 * SENT) on its day; `replied` the answers it received in its own ramp's conversations, on the UTC day
 * they reached it (read over IMAP, or sent when not read yet); `target` is the day's ramp target.
 */

const DAY_MS = 24 * 3600_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export interface WarmupDay {
  date: string;
  target: number;
  sent: number;
  replied: number;
}

async function dailyCounts(db: DbOrTx, mailboxId: string, from: string) {
  const w = warmupMessages;
  return selectRows<{ date: string; sent: number; replied: number }>(
    db,
    sql`select date, sum(sent)::int as sent, sum(replied)::int as replied from (
        select ${w.day}::text as date, 1 as sent, 0 as replied from ${w}
        where ${w.fromMailboxId} = ${mailboxId} and ${w.depth} = 0 and ${w.status} in ('SENDING', 'SENT') and ${w.day} >= ${from}::date
        union all
        select (coalesce(${w.receivedAt}, ${w.sentAt}) at time zone 'UTC')::date::text, 0, 1 from ${w}
        where ${w.toMailboxId} = ${mailboxId} and ${w.warmingMailboxId} = ${mailboxId} and ${w.depth} > 0 and ${w.status} = 'SENT'
          and coalesce(${w.receivedAt}, ${w.sentAt}) >= ${`${from}T00:00:00Z`}::timestamptz) x
      group by date`,
  );
}

/** The 30 UTC days ending today, oldest first, zero days included. */
export async function warmupSeries(db: DbOrTx, mailboxId: string, now: Date): Promise<WarmupDay[]> {
  const dates = Array.from({ length: 30 }, (_, i) => isoDay(new Date(now.getTime() - (29 - i) * DAY_MS)));
  const [targets, counts] = await Promise.all([
    db
      .select({ day: warmupDays.day, target: warmupDays.target })
      .from(warmupDays)
      .where(sql`${warmupDays.mailboxId} = ${mailboxId} and ${warmupDays.day} >= ${dates[0]}::date`),
    dailyCounts(db, mailboxId, dates[0]),
  ]);
  return dates.map((date) => {
    const c = counts.find((x) => x.date === date);
    return { date, target: targets.find((t) => t.day === date)?.target ?? 0, sent: c?.sent ?? 0, replied: c?.replied ?? 0 };
  });
}

/** The ramp as decisions' `warmup` object (null when never started), with `daily`: the 30-day series. */
export async function warmupReport(db: DbOrTx, mailboxId: string, now: Date) {
  const [w] = await db.select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, mailboxId));
  if (!w) return null;
  const daily = await warmupSeries(db, mailboxId, now);
  const today = daily[daily.length - 1];
  return {
    dayIndex: w.dayIndex,
    startingVolume: w.startingVolume,
    dailyIncrease: w.dailyIncrease,
    targetVolume: w.targetVolume,
    replyRateMinPct: w.replyRateMinPct,
    replyRateMaxPct: w.replyRateMaxPct,
    todayTarget: Math.min(w.startingVolume + w.dayIndex * w.dailyIncrease, w.targetVolume),
    sentToday: today.sent,
    repliedToday: today.replied,
    startedAt: w.startedAt.toISOString(),
    pausedAt: w.pausedAt?.toISOString() ?? null,
    daily,
  };
}
