import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";

export interface CampaignStats {
  sentCount: number;
  leadsContacted: number;
  openedCount: number;
  openedRate: number;
  clickedCount: number;
  clickedRate: number;
  repliedCount: number;
  repliedRate: number;
  positiveCount: number;
  positiveRate: number;
  bouncedCount: number;
  bouncedRate: number;
  opensTracked: boolean;
  clicksTracked: boolean;
}

const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : 0);

/**
 * The 2.4 counting, in one place for the list, the stats endpoint, reports and analytics: sends and
 * bounces count emails; opens, clicks, replies and positives count leads once, over leadsContacted.
 * Opens, clicks and replies are counted here once tracking and the inbox record them.
 */
export async function campaignStats(db: DbOrTx, campaigns: { id: string; trackOpens: boolean; trackClicks: boolean }[]): Promise<Map<string, CampaignStats>> {
  const out = new Map<string, CampaignStats>();
  if (campaigns.length === 0) return out;
  const rows = (await db.execute(sql`
    select campaign_id,
      count(*) filter (where status in ('SENT', 'BOUNCED'))::int as sent,
      count(distinct lead_email) filter (where status in ('SENT', 'BOUNCED'))::int as contacted,
      count(*) filter (where status = 'BOUNCED')::int as bounced
    from emails
    where campaign_id in ${campaigns.map((c) => c.id)}
    group by campaign_id`)) as unknown as { campaign_id: string; sent: number; contacted: number; bounced: number }[];
  const by = new Map(rows.map((r) => [r.campaign_id, r]));
  for (const c of campaigns) {
    const r = by.get(c.id);
    const sent = r?.sent ?? 0;
    const contacted = r?.contacted ?? 0;
    const bounced = r?.bounced ?? 0;
    out.set(c.id, {
      sentCount: sent,
      leadsContacted: contacted,
      openedCount: 0,
      openedRate: 0,
      clickedCount: 0,
      clickedRate: 0,
      repliedCount: 0,
      repliedRate: rate(0, contacted),
      positiveCount: 0,
      positiveRate: 0,
      bouncedCount: bounced,
      bouncedRate: rate(bounced, sent),
      opensTracked: c.trackOpens,
      clicksTracked: c.trackClicks,
    });
  }
  return out;
}
