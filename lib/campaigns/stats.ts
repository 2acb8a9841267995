import { sql, type SQL } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
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

/** A person's reply (automatic replies — out of office and the like — are not a result). */
const PERSON_REPLY = sql`not r.is_auto_reply`;

/**
 * The 2.4 counting, in one place for the list, the stats endpoint, reports and analytics: sends and
 * bounces count emails; opens, clicks, replies and positives count leads once, over leadsContacted.
 * A reply is a person's answer the inbox matched to the campaign (automatic replies do not count); a
 * positive one is classified INTERESTED.
 */
export async function campaignStats(
  db: DbOrTx,
  campaigns: { id: string; trackOpens: boolean; trackClicks: boolean }[],
): Promise<Map<string, CampaignStats>> {
  const out = new Map<string, CampaignStats>();
  if (campaigns.length === 0) return out;
  const ids = campaigns.map((c) => c.id);
  const [rows, replyRows] = await Promise.all([
    selectRows<{ campaign_id: string; sent: number; contacted: number; bounced: number; opened: number; clicked: number }>(
      db,
      sql`
        select campaign_id,
          count(*) filter (where status in ('SENT', 'BOUNCED'))::int as sent,
          count(distinct lead_email) filter (where status in ('SENT', 'BOUNCED'))::int as contacted,
          count(*) filter (where status = 'BOUNCED')::int as bounced,
          count(distinct lead_email) filter (where opened_at is not null)::int as opened,
          count(distinct lead_email) filter (where clicked_at is not null)::int as clicked
        from emails
        where campaign_id = ${anyOf(ids)}
        group by campaign_id`,
    ),
    selectRows<{ campaign_id: string; replied: number; positive: number }>(
      db,
      sql`
        select r.campaign_id,
          count(distinct r.lead_id)::int as replied,
          count(distinct r.lead_id) filter (where r.intent = 'INTERESTED')::int as positive
        from replies r
        where r.campaign_id = ${anyOf(ids)} and r.lead_id is not null and ${PERSON_REPLY}
        group by r.campaign_id`,
    ),
  ]);
  const by = new Map(rows.map((r) => [r.campaign_id, r]));
  const repliesBy = new Map(replyRows.map((r) => [r.campaign_id, r]));
  for (const c of campaigns) {
    const r = by.get(c.id);
    const sent = r?.sent ?? 0;
    const contacted = r?.contacted ?? 0;
    const bounced = r?.bounced ?? 0;
    const replied = repliesBy.get(c.id)?.replied ?? 0;
    const positive = repliesBy.get(c.id)?.positive ?? 0;
    out.set(c.id, {
      sentCount: sent,
      leadsContacted: contacted,
      openedCount: r?.opened ?? 0,
      openedRate: rate(r?.opened ?? 0, contacted),
      clickedCount: r?.clicked ?? 0,
      clickedRate: rate(r?.clicked ?? 0, contacted),
      repliedCount: replied,
      repliedRate: rate(replied, contacted),
      positiveCount: positive,
      positiveRate: rate(positive, contacted),
      bouncedCount: bounced,
      bouncedRate: rate(bounced, sent),
      opensTracked: c.trackOpens,
      clicksTracked: c.trackClicks,
    });
  }
  return out;
}

/**
 * Per step and A/B variant: sent, opened, clicked, replied, bounced and their rates over the variant's
 * sends (the `variants` of GET /stats). A variant's replies are the leads who answered one of its emails.
 */
export async function variantStats(db: DbOrTx, campaignId: string) {
  const rows = await selectRows<{
    step_id: string;
    step_order: number;
    variant_group: string | null;
    sent: number;
    opened: number;
    clicked: number;
    replied: number;
    bounced: number;
  }>(
    db,
    sql`
      select s.id as step_id, s.step_order, nullif(s.variant_group, '') as variant_group,
        count(e.id) filter (where e.status in ('SENT', 'BOUNCED'))::int as sent,
        count(distinct e.lead_email) filter (where e.opened_at is not null)::int as opened,
        count(distinct e.lead_email) filter (where e.clicked_at is not null)::int as clicked,
        count(distinct e.lead_email)
          filter (where exists (select 1 from replies r where r.email_id = e.id and ${PERSON_REPLY}))::int as replied,
        count(e.id) filter (where e.status = 'BOUNCED')::int as bounced
      from campaign_steps s left join emails e on e.step_id = s.id
      where s.campaign_id = ${campaignId}
      group by s.id, s.step_order, s.variant_group
      order by s.step_order, s.variant_group`,
  );
  return rows.map((r) => ({
    stepId: r.step_id,
    stepOrder: r.step_order,
    variantGroup: r.variant_group,
    sent: r.sent,
    opened: r.opened,
    clicked: r.clicked,
    replied: r.replied,
    bounced: r.bounced,
    openedRate: rate(r.opened, r.sent),
    clickedRate: rate(r.clicked, r.sent),
    repliedRate: rate(r.replied, r.sent),
    bouncedRate: rate(r.bounced, r.sent),
  }));
}

/** The start (UTC midnight) of the first of the last `days` UTC days, today included. */
export function firstOfDays(now: Date, days: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/**
 * Daily counts for one campaign or the workspace over the last `days` UTC days (today included), each
 * on the day it happened: sent and bounced on the day the email went out, opened and clicked on the
 * day of the email's first open or click, replied on the day a person's reply arrived.
 */
export async function dailyCounts(db: DbOrTx, where: { campaignId?: string; workspaceId: string }, days: number, now: Date) {
  const from = sql`${firstOfDays(now, days).toISOString()}::timestamptz`;
  const campaign = (col: SQL) => (where.campaignId ? sql`${col} = ${where.campaignId}` : sql`${col} is not null`);
  const inDay = (col: SQL) => sql`${col} >= d.day and ${col} < d.day + interval '1 day'`;
  return selectRows<{ date: string; sent: number; bounced: number; opened: number; clicked: number; replied: number }>(
    db,
    sql`
      with days as (
        select d as day from generate_series(${from}, ${from} + make_interval(days => ${days - 1}), interval '1 day') d
      ), e as (
        select status, created_at, opened_at, clicked_at from emails
        where workspace_id = ${where.workspaceId} and ${campaign(sql`campaign_id`)}
          and (created_at >= ${from} or opened_at >= ${from} or clicked_at >= ${from})
      ), r as (
        select received_at from replies r
        where r.workspace_id = ${where.workspaceId} and ${campaign(sql`r.campaign_id`)} and r.lead_id is not null
          and ${PERSON_REPLY} and r.received_at >= ${from}
      )
      select to_char(d.day, 'YYYY-MM-DD') as date,
        (select count(*) from e where e.status in ('SENT', 'BOUNCED') and ${inDay(sql`e.created_at`)})::int as sent,
        (select count(*) from e where e.status = 'BOUNCED' and ${inDay(sql`e.created_at`)})::int as bounced,
        (select count(*) from e where ${inDay(sql`e.opened_at`)})::int as opened,
        (select count(*) from e where ${inDay(sql`e.clicked_at`)})::int as clicked,
        (select count(*) from r where ${inDay(sql`r.received_at`)})::int as replied
      from days d order by d.day`,
  );
}
