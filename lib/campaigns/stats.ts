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
 * Replies are counted here once the inbox records them.
 */
export async function campaignStats(db: DbOrTx, campaigns: { id: string; trackOpens: boolean; trackClicks: boolean }[]): Promise<Map<string, CampaignStats>> {
  const out = new Map<string, CampaignStats>();
  if (campaigns.length === 0) return out;
  const rows = (await db.execute(sql`
    select campaign_id,
      count(*) filter (where status in ('SENT', 'BOUNCED'))::int as sent,
      count(distinct lead_email) filter (where status in ('SENT', 'BOUNCED'))::int as contacted,
      count(*) filter (where status = 'BOUNCED')::int as bounced,
      count(distinct lead_email) filter (where opened_at is not null)::int as opened,
      count(distinct lead_email) filter (where clicked_at is not null)::int as clicked
    from emails
    where campaign_id in ${campaigns.map((c) => c.id)}
    group by campaign_id`)) as unknown as { campaign_id: string; sent: number; contacted: number; bounced: number; opened: number; clicked: number }[];
  const by = new Map(rows.map((r) => [r.campaign_id, r]));
  for (const c of campaigns) {
    const r = by.get(c.id);
    const sent = r?.sent ?? 0;
    const contacted = r?.contacted ?? 0;
    const bounced = r?.bounced ?? 0;
    out.set(c.id, {
      sentCount: sent,
      leadsContacted: contacted,
      openedCount: r?.opened ?? 0,
      openedRate: rate(r?.opened ?? 0, contacted),
      clickedCount: r?.clicked ?? 0,
      clickedRate: rate(r?.clicked ?? 0, contacted),
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

/** Per step and A/B variant: sent, opened, replied and their rates (the `variants` of GET /stats). */
export async function variantStats(db: DbOrTx, campaignId: string) {
  const rows = (await db.execute(sql`
    select s.id as step_id, s.step_order, nullif(s.variant_group, '') as variant_group,
      count(e.id) filter (where e.status in ('SENT', 'BOUNCED'))::int as sent,
      count(distinct e.lead_email) filter (where e.opened_at is not null)::int as opened,
      count(distinct e.lead_email) filter (where e.clicked_at is not null)::int as clicked,
      count(e.id) filter (where e.status = 'BOUNCED')::int as bounced
    from campaign_steps s left join emails e on e.step_id = s.id
    where s.campaign_id = ${campaignId}
    group by s.id, s.step_order, s.variant_group
    order by s.step_order, s.variant_group`)) as unknown as { step_id: string; step_order: number; variant_group: string | null; sent: number; opened: number; clicked: number; bounced: number }[];
  return rows.map((r) => ({
    stepId: r.step_id,
    stepOrder: r.step_order,
    variantGroup: r.variant_group,
    sent: r.sent,
    opened: r.opened,
    clicked: r.clicked,
    replied: 0,
    bounced: r.bounced,
    openedRate: rate(r.opened, r.sent),
    clickedRate: rate(r.clicked, r.sent),
    repliedRate: 0,
    bouncedRate: rate(r.bounced, r.sent),
  }));
}

/** Daily counts for one campaign or the workspace over the last `days` UTC days (today included). */
export async function dailyCounts(db: DbOrTx, where: { campaignId?: string; workspaceId: string }, days: number, now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = (await db.execute(sql`
    select to_char(d::date, 'YYYY-MM-DD') as date,
      count(e.id) filter (where e.status in ('SENT', 'BOUNCED'))::int as sent,
      count(e.id) filter (where e.status = 'BOUNCED')::int as bounced,
      count(e.id) filter (where e.opened_at is not null)::int as opened,
      count(e.id) filter (where e.clicked_at is not null)::int as clicked
    from generate_series(${start.toISOString()}::timestamptz, ${start.toISOString()}::timestamptz + make_interval(days => ${days - 1}), interval '1 day') d
    left join emails e on e.workspace_id = ${where.workspaceId}
      ${where.campaignId ? sql`and e.campaign_id = ${where.campaignId}` : sql`and e.campaign_id is not null`}
      and e.created_at >= d and e.created_at < d + interval '1 day'
    group by d order by d`)) as unknown as { date: string; sent: number; bounced: number; opened: number; clicked: number }[];
  return rows.map((r) => ({ ...r, replied: 0 }));
}
