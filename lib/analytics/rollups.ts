import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import type { Period } from "./period";

export interface Counts {
  sent: number;
  bounced: number;
  bouncedHard: number;
  bouncedSoft: number;
  failed: number;
  leadsContacted: number;
  opened: number;
  clicked: number;
  replied: number;
  positive: number;
  lastSentAt: string | null;
}

/**
 * Reads of the trigger-maintained rollups (db/schema/analytics-rollups.ts, docs/analytics.md
 * "Counters"): the same numbers as counts.ts's plain statement, exact at every commit, without reading
 * the raw rows. Only the shapes that must answer at any size use them: a campaign's lifetime (the
 * campaign list, /stats, campaigns.csv) and the workspace's totals of a period ending now (the
 * overview); everything else is counted on the raw rows.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ceilTo = (d: Date, ms: number) => new Date(Math.ceil(d.getTime() / ms) * ms);

/** One row of counts as SQL answers it (snake_case sums), raw-row counts and rollups alike. */
export type CountRow = {
  k: string;
  sent: number;
  bounced: number;
  bounced_hard: number;
  bounced_soft: number;
  failed: number;
  contacted: number;
  opened: number;
  clicked: number;
  replied: number;
  positive: number;
  last_sent_at: Date | string | null;
};

/** The sums of a CountRow over grouped rows (the raw parts or the rollups). */
export const SUMS = sql`sum(sent)::int as sent, sum(bounced)::int as bounced, sum(bounced_hard)::int as bounced_hard,
  sum(bounced_soft)::int as bounced_soft, sum(failed)::int as failed, sum(contacted)::int as contacted, sum(opened)::int as opened,
  sum(clicked)::int as clicked, sum(replied)::int as replied, sum(positive)::int as positive`;

/** A CountRow as the API's Counts. */
export function countsOf(r: CountRow): Counts {
  return {
    sent: r.sent,
    bounced: r.bounced,
    bouncedHard: r.bounced_hard,
    bouncedSoft: r.bounced_soft,
    failed: r.failed,
    leadsContacted: r.contacted,
    opened: r.opened,
    clicked: r.clicked,
    replied: r.replied,
    positive: r.positive,
    lastSentAt: r.last_sent_at ? new Date(r.last_sent_at).toISOString() : null,
  };
}

/**
 * Lifetime numbers of the workspace's campaigns `campaignIds`: the span-0 rows (one per campaign and
 * mailbox) summed; the last send is the newest counted email on the (campaign_id, created_at) index.
 */
export async function campaignLifetimes(db: DbOrTx, workspaceId: string, campaignIds: readonly string[]): Promise<Map<string, Counts>> {
  const rows = await selectRows<CountRow>(
    db,
    sql`select r.campaign_id as k, ${SUMS},
        (select e.created_at from emails e where e.campaign_id = r.campaign_id and e.workspace_id = ${workspaceId}
          and e.status in ('SENT', 'BOUNCED') order by e.created_at desc limit 1) as last_sent_at
      from analytics_rollups r
      where r.workspace_id = ${workspaceId} and r.span = 0 and r.start = 'epoch' and r.campaign_id = ${anyOf(campaignIds)}
      group by r.campaign_id`,
  );
  return new Map(rows.map((r) => [r.k, countsOf(r)]));
}

/**
 * The workspace's totals over `period`, or null when the rollups cannot say (something dated at or
 * after `to` exists: a period in the past, or a clock behind the data) and the raw rows must be read.
 *
 * With nothing at or after `to`, [from, to) is [from, ∞): email columns are the day rows from the
 * first whole day, the hour rows from the first whole hour before it, and the raw emails of the part
 * hour before that (per mailbox, on its (mailbox_id, created_at) index). A lead column of the hour and
 * day rows counts the leads whose LAST activity of that kind is in the bucket, so its sum from a bucket
 * on is the number of leads with any activity since — COUNT(DISTINCT) over the period; the part hour
 * is read on analytics_lead_last's (workspace, kind, at) index.
 */
export async function workspacePeriodTotals(db: DbOrTx, workspaceId: string, period: Period): Promise<Counts | null> {
  const { from, to } = period;
  const hour = ceilTo(from, HOUR_MS);
  const day = new Date(Math.max(ceilTo(from, DAY_MS).getTime(), hour.getTime()));
  const floorTo = new Date(Math.floor(to.getTime() / HOUR_MS) * HOUR_MS);
  // The part hour [from, hour) from the rows; nothing to read when the period starts on an hour.
  const part = from.getTime() < hour.getTime();
  const [r] = await selectRows<CountRow & { later: boolean }>(
    db,
    sql`with b as (
        select ${SUMS} from analytics_rollups
        where workspace_id = ${workspaceId} and campaign_id = ''
          and ((span = 2 and start >= ${ts(day)}) or (span = 1 and start >= ${ts(hour)} and start < ${ts(day)}))
      ), edge as (${part ? edgeEmails(workspaceId, from, hour) : sql`select 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed`}),
      leads as (${part ? edgeLeads(workspaceId, from, hour) : sql`select 0 as contacted, 0 as opened, 0 as clicked, 0 as replied, 0 as positive`})
      select 'all' as k,
        coalesce(b.sent, 0) + edge.sent as sent, coalesce(b.bounced, 0) + edge.bounced as bounced,
        coalesce(b.bounced_hard, 0) + edge.bounced_hard as bounced_hard, coalesce(b.bounced_soft, 0) + edge.bounced_soft as bounced_soft,
        coalesce(b.failed, 0) + edge.failed as failed, coalesce(b.contacted, 0) + leads.contacted as contacted,
        coalesce(b.opened, 0) + leads.opened as opened, coalesce(b.clicked, 0) + leads.clicked as clicked,
        coalesce(b.replied, 0) + leads.replied as replied, coalesce(b.positive, 0) + leads.positive as positive,
        (select max(x.at) from mailboxes m cross join lateral (
          select e.created_at as at from emails e
          where e.mailbox_id = m.id and e.created_at >= ${ts(from)} and e.created_at < ${ts(to)} and e.campaign_id is not null
            and e.workspace_id = ${workspaceId} and e.status in ('SENT', 'BOUNCED')
          order by e.created_at desc limit 1) x
        where m.workspace_id = ${workspaceId}) as last_sent_at,
        exists (select 1 from analytics_rollups where workspace_id = ${workspaceId} and span = 1 and start >= ${ts(floorTo)}
          and campaign_id = '' and max_at >= ${ts(to)}) as later
      from b, edge, leads`,
  );
  return r.later ? null : countsOf(r);
}

/** Emails of [from, hour) on each mailbox's (mailbox_id, created_at) index (LATERAL: one range per mailbox). */
function edgeEmails(workspaceId: string, from: Date, hour: Date) {
  return sql`select coalesce(sum(x.sent), 0)::int as sent, coalesce(sum(x.bounced), 0)::int as bounced,
      coalesce(sum(x.bounced_hard), 0)::int as bounced_hard, coalesce(sum(x.bounced_soft), 0)::int as bounced_soft,
      coalesce(sum(x.failed), 0)::int as failed
    from mailboxes m cross join lateral (
      select count(*) filter (where e.status in ('SENT', 'BOUNCED')) as sent, count(*) filter (where e.status = 'BOUNCED') as bounced,
        count(*) filter (where e.status = 'BOUNCED' and e.bounce_type is distinct from 'SOFT') as bounced_hard,
        count(*) filter (where e.status = 'BOUNCED' and e.bounce_type = 'SOFT') as bounced_soft,
        count(*) filter (where e.status = 'FAILED') as failed
      from emails e where e.mailbox_id = m.id and e.created_at >= ${ts(from)} and e.created_at < ${ts(hour)}
        and e.campaign_id is not null and e.workspace_id = ${workspaceId}) x
    where m.workspace_id = ${workspaceId}`;
}

/** Leads whose latest activity of each kind is in [from, hour), on analytics_lead_last's (workspace, kind, at) index. */
function edgeLeads(workspaceId: string, from: Date, hour: Date) {
  return sql`select count(*) filter (where metric = 1)::int as contacted, count(*) filter (where metric = 2)::int as opened,
      count(*) filter (where metric = 3)::int as clicked, count(*) filter (where metric = 4)::int as replied,
      count(*) filter (where metric = 5)::int as positive
    from analytics_lead_last
    where workspace_id = ${workspaceId} and metric between 1 and 5 and at >= ${ts(from)} and at < ${ts(hour)}`;
}

/** Lead-count rows a workspace may gather before a read folds them into one. */
const FOLD_AT = 32;

/**
 * The workspace's lead count (the overview's totalLeads): the sum of its analytics_lead_counts deltas,
 * exact at every commit (one delta per inserting or deleting statement on `leads`). Past FOLD_AT rows
 * they are folded into one — delete and insert their sum in one statement: rows appended meanwhile are
 * not seen by it and stay, and a concurrent fold deletes (and re-adds) only the rows it got.
 */
export async function workspaceLeadCount(db: DbOrTx, workspaceId: string): Promise<number> {
  const [r] = await selectRows<{ n: number; rows: number }>(
    db,
    sql`select coalesce(sum(n), 0)::int as n, count(*)::int as rows from analytics_lead_counts where workspace_id = ${workspaceId}`,
  );
  if (r.rows > FOLD_AT) {
    await db.execute(sql`with d as (delete from analytics_lead_counts where workspace_id = ${workspaceId} returning n)
      insert into analytics_lead_counts (workspace_id, n) select ${workspaceId}, sum(n) from d having count(*) > 0`);
  }
  return r.n;
}
