import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { JobCtx } from "../ctx";
import { scanCampaign } from "./scan";

/** Each sending (ACTIVE or PAUSED) campaign is scanned once an hour. */
export const SCAN_EVERY_MS = 60 * 60_000;
const LEASE_MS = 5 * 60_000;
const PER_RUN = 20;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * The copy-fatigue job: claims campaigns whose last scan is an hour old (or that were never scanned)
 * with a lease (SKIP LOCKED: two runners never scan one campaign at once) and scans them.
 */
export async function scanDueCampaigns({ db, clock, log }: JobCtx): Promise<{ scanned: number; failed: number }> {
  const now = clock.now();
  await selectRows(
    db,
    sql`insert into copy_fatigue_scans (campaign_id, workspace_id)
      select c.id, c.workspace_id from campaigns c
      where c.status in ('ACTIVE', 'PAUSED') and not exists (select 1 from copy_fatigue_scans s where s.campaign_id = c.id)
      on conflict do nothing`,
  );
  const due = await selectRows<{ campaign_id: string; workspace_id: string }>(
    db,
    sql`update copy_fatigue_scans set lease_until = ${ts(new Date(now.getTime() + LEASE_MS))}
      where campaign_id in (
        select s.campaign_id from copy_fatigue_scans s join campaigns c on c.id = s.campaign_id
        where c.status in ('ACTIVE', 'PAUSED')
          and (s.last_scan_at is null or s.last_scan_at <= ${ts(new Date(now.getTime() - SCAN_EVERY_MS))})
          and (s.lease_until is null or s.lease_until < ${ts(now)})
        order by s.last_scan_at nulls first limit ${PER_RUN} for update of s skip locked)
      returning campaign_id, workspace_id`,
  );
  let scanned = 0;
  let failed = 0;
  for (const d of due) {
    try {
      await scanCampaign(db, d.workspace_id, d.campaign_id, now);
      scanned++;
    } catch (e) {
      failed++;
      log.error("copy-fatigue scan failed", { campaignId: d.campaign_id, error: String(e) });
    }
  }
  return { scanned, failed };
}
