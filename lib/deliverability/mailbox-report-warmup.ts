import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxWarmups, warmupDays } from "../../db/schema";
import { lastUtcDays, utcDays } from "../analytics/period";
import { warmupDailyCounts, warmupView } from "../mailboxes/warmup-view";

/**
 * A mailbox's warmup for GET /deliverability/mailboxes/<id>: the ramp shaped as the `warmup`
 * object (lib/mailboxes/warmup-view.ts), and its last 30 UTC days counted as the row's sentToday and
 * repliedToday are — `sent`, the emails it sent in its own warmup conversations; `replied`, the
 * answers those got — and `target`, the day's ramp target.
 */

export interface WarmupDay {
  date: string;
  target: number;
  sent: number;
  replied: number;
}

/** The 30 UTC days ending today, oldest first, zero days included. */
export async function warmupSeries(db: DbOrTx, mailboxId: string, now: Date): Promise<WarmupDay[]> {
  const dates = utcDays(lastUtcDays(now, 30));
  const [targets, counts] = await Promise.all([
    db
      .select({ day: warmupDays.day, target: warmupDays.target })
      .from(warmupDays)
      .where(sql`${warmupDays.mailboxId} = ${mailboxId} and ${warmupDays.day} >= ${dates[0]}::date`),
    warmupDailyCounts(db, [mailboxId], dates[0]),
  ]);
  return dates.map((date) => {
    const c = counts.find((x) => x.day === date);
    return { date, target: targets.find((t) => t.day === date)?.target ?? 0, sent: c?.sent ?? 0, replied: c?.replied ?? 0 };
  });
}

/** The ramp as the `warmup` object of GET /mailboxes/<id> (null when never started), with `daily`: the 30-day series. */
export async function warmupReport(db: DbOrTx, mailboxId: string, now: Date) {
  const [w] = await db.select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, mailboxId));
  if (!w) return null;
  const daily = await warmupSeries(db, mailboxId, now);
  const today = daily[daily.length - 1];
  return { ...warmupView(w, { sent: today.sent, replied: today.replied }), daily };
}
