import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";

/** Settings the scheduler's deferrals were worked out from (window, days, zone, new-lead cap). */
export const SCHEDULING_SETTINGS = [
  "sendWindowStartHour",
  "sendWindowEndHour",
  "sendDaysOfWeek",
  "defaultTimezone",
  "dailyNewLeadCap",
  "skipHolidays",
  "blackoutDates",
] as const;

/**
 * After a campaign's window, days, zone or dailyNewLeadCap change, the leads the scheduler deferred under
 * the old settings (to a window's opening, or to the next day when the new-lead cap was full) are due
 * again by the new ones: a first email at once, a follow-up at its own delay after the previous email.
 * Retries keep their backoff, and paused leads (out of office, a wait branch) their pause. The next pass applies the new settings (and defers again if it must).
 */
export async function undoDeferrals(db: DbOrTx, campaignId: string, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`update campaign_leads set next_send_at = null
    where campaign_id = ${campaignId} and status = 'ACTIVE' and next_step_order = 0 and failed_attempts = 0 and next_send_at > ${at}
      and (paused_until is null or paused_until <= ${at})`);
  await db.execute(sql`update campaign_leads cl set next_send_at = cl.last_emailed_at + d.h * interval '1 hour'
    from (select step_order, max(coalesce(delay_hours_after_previous, 0)) as h from campaign_steps where campaign_id = ${campaignId} group by step_order) d
    where cl.campaign_id = ${campaignId} and cl.status = 'ACTIVE' and cl.next_step_order = d.step_order and cl.next_step_order > 0
      and cl.failed_attempts = 0 and cl.last_emailed_at is not null and (cl.paused_until is null or cl.paused_until <= ${at})
      and cl.next_send_at > greatest(${at}, cl.last_emailed_at + d.h * interval '1 hour')`);
}

/** Whether a settings change touches what deferrals depend on. */
export function changesScheduling(set: Record<string, unknown>): boolean {
  return SCHEDULING_SETTINGS.some((k) => set[k] !== undefined);
}
