import { eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mailboxWarmups, warmupDays, warmupMessages } from "../../db/schema";
import { lastUtcDays, utcDays } from "../analytics/period";
import { warmupView } from "../warmup/view";

/**
 * A mailbox's warmup for GET /deliverability/mailboxes/<id>: the ramp shaped as decisions' `warmup`
 * object (lib/warmup/view.ts), and its last 30 UTC days counted as the row's sentToday and
 * repliedToday are — `sent`, the emails it sent in its own warmup conversations; `replied`, the
 * answers those got — and `target`, the day's ramp target.
 */

export interface WarmupDay {
  date: string;
  target: number;
  sent: number;
  replied: number;
}

/** Per UTC day: what warmupCountsToday (lib/warmup/view.ts) counts for today, over the series. */
async function dailyCounts(db: DbOrTx, mailboxId: string, from: string) {
  const w = warmupMessages;
  return selectRows<{ date: string; sent: number; replied: number }>(
    db,
    sql`select ${w.day}::text as date,
          (count(*) filter (where ${w.fromMailboxId} = ${w.warmingMailboxId}))::int as sent,
          (count(*) filter (where ${w.fromMailboxId} <> ${w.warmingMailboxId} and ${w.status} = 'SENT'))::int as replied
        from ${w}
        where ${w.warmingMailboxId} = ${mailboxId} and ${w.day} >= ${from}::date and ${w.status} in ('SENDING', 'SENT')
        group by ${w.day}`,
  );
}

/** The 30 UTC days ending today, oldest first, zero days included. */
export async function warmupSeries(db: DbOrTx, mailboxId: string, now: Date): Promise<WarmupDay[]> {
  const dates = utcDays(lastUtcDays(now, 30));
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
  return { ...warmupView(w, { sent: today.sent, replied: today.replied }), daily };
}
