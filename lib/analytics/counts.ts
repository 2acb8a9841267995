import { sql, type SQL } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import type { Period } from "./period";
import { campaignLifetimes, type CountRow, type Counts, countsOf, SUMS, workspacePeriodTotals } from "./rollups";

/**
 * The one counting of sends, opens, clicks, replies and bounces (see docs/analytics.md). The campaign
 * list, campaign stats and timeseries, the analytics overview, mailbox and domain stats and every
 * report read their numbers from here, so they cannot disagree. Definitions, each on campaign email
 * only (warmup mail lives in its own table and is never here):
 * - sent: emails SENT or BOUNCED; bounced (hard, soft): emails BOUNCED; failed: emails refused at send
 *   time (FAILED) — all on the day the email was created (claimed and sent).
 * - leadsContacted: leads (by address) that got at least one sent email.
 * - opened, clicked: leads whose email's first open / first click happened in the period, each once.
 * - replied, positive: leads with a person's reply (automatic replies are not a result) matched to a
 *   campaign, received in the period; positive = classified INTERESTED. Each lead once.
 * With no period everything is counted (a campaign's lifetime, as the campaign stats show it).
 */
export const ZERO: Counts = {
  sent: 0,
  bounced: 0,
  bouncedHard: 0,
  bouncedSoft: 0,
  failed: 0,
  leadsContacted: 0,
  opened: 0,
  clicked: 0,
  replied: 0,
  positive: 0,
  lastSentAt: null,
};

/** A rate rounded to 4 places; 0 over an empty denominator (nothing to divide). */
export const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : 0);

export type GroupBy = "workspace" | "campaign" | "mailbox" | "domain" | "day" | "campaignDay" | "mailboxDay" | "domainDay";

export interface CountScope {
  workspaceId: string;
  period?: Period;
  campaignIds?: readonly string[];
  mailboxIds?: readonly string[];
  /** A sending domain (the mailbox address's domain). */
  domain?: string;
}

/** A person's reply (automatic replies — out of office and the like — are not a result). */
export const PERSON_REPLY = sql`not r.is_auto_reply`;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The group key of a row, from the timestamp the metric is dated by (the day) or the row's owner. */
function keyOf(by: GroupBy, alias: "e" | "r", at: SQL): SQL {
  const a = sql.raw(alias);
  switch (by) {
    case "workspace":
      return sql`'all'`;
    case "campaign":
      return sql`${a}.campaign_id`;
    case "mailbox":
      return sql`${a}.mailbox_id`;
    case "domain":
      return sql`d.domain`;
    case "day":
      return sql`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD')`;
    case "campaignDay":
      return sql`${a}.campaign_id || ' ' || to_char(${at} at time zone 'UTC', 'YYYY-MM-DD')`;
    case "mailboxDay":
      return sql`${a}.mailbox_id || ' ' || to_char(${at} at time zone 'UTC', 'YYYY-MM-DD')`;
    case "domainDay":
      return sql`d.domain || ' ' || to_char(${at} at time zone 'UTC', 'YYYY-MM-DD')`;
  }
}

/** FROM and WHERE shared by every part over one table: the workspace, campaign email, the scope's filters. */
function source(alias: "e" | "r", by: GroupBy, s: CountScope): { from: SQL; where: SQL } {
  const a = sql.raw(alias);
  const table = alias === "e" ? sql`emails e` : sql`replies r`;
  const joinDomain = by === "domain" || by === "domainDay" || s.domain !== undefined;
  const from = joinDomain ? sql`${table} join mailboxes m on m.id = ${a}.mailbox_id join domains d on d.id = m.domain_id` : table;
  const conds: SQL[] = [sql`${a}.workspace_id = ${s.workspaceId}`, sql`${a}.campaign_id is not null`];
  if (s.campaignIds) conds.push(sql`${a}.campaign_id = ${anyOf(s.campaignIds)}`);
  if (s.mailboxIds) conds.push(sql`${a}.mailbox_id = ${anyOf(s.mailboxIds)}`);
  if (s.domain !== undefined) conds.push(sql`d.domain = ${s.domain.toLowerCase()}`);
  if (alias === "r") conds.push(sql`r.lead_id is not null and ${PERSON_REPLY}`);
  return { from, where: sql.join(conds, sql` and `) };
}

const inPeriod = (col: SQL, p?: Period) => (p ? sql`${col} >= ${ts(p.from)} and ${col} < ${ts(p.to)}` : sql`${col} is not null`);

/**
 * The statement: one part per dating column (sends by created_at, opens by opened_at, clicks by
 * clicked_at, replies by received_at), each grouped by the key and filtered on its own column so an
 * index on it can serve it, then summed per key. Distinct leads are counted inside a part, never summed
 * across parts, so every figure is an exact COUNT(DISTINCT …).
 */
function countsSql(by: GroupBy, s: CountScope): SQL {
  const e = source("e", by, s);
  const r = source("r", by, s);
  const p = s.period;
  const created = sql`e.created_at`;
  return sql`
    with parts as (
      select ${keyOf(by, "e", created)} as k,
        count(*) filter (where e.status in ('SENT', 'BOUNCED')) as sent,
        count(*) filter (where e.status = 'BOUNCED') as bounced,
        count(*) filter (where e.status = 'BOUNCED' and e.bounce_type is distinct from 'SOFT') as bounced_hard,
        count(*) filter (where e.status = 'BOUNCED' and e.bounce_type = 'SOFT') as bounced_soft,
        count(*) filter (where e.status = 'FAILED') as failed,
        count(distinct e.lead_email) filter (where e.status in ('SENT', 'BOUNCED')) as contacted,
        0::bigint as opened, 0::bigint as clicked, 0::bigint as replied, 0::bigint as positive,
        max(e.created_at) filter (where e.status in ('SENT', 'BOUNCED')) as last_sent_at
      from ${e.from} where ${e.where} and ${inPeriod(created, p)} group by 1
      union all
      select ${keyOf(by, "e", sql`e.opened_at`)}, 0, 0, 0, 0, 0, 0, count(distinct e.lead_email), 0, 0, 0, null
      from ${e.from} where ${e.where} and ${inPeriod(sql`e.opened_at`, p)} group by 1
      union all
      select ${keyOf(by, "e", sql`e.clicked_at`)}, 0, 0, 0, 0, 0, 0, 0, count(distinct e.lead_email), 0, 0, null
      from ${e.from} where ${e.where} and ${inPeriod(sql`e.clicked_at`, p)} group by 1
      union all
      select ${keyOf(by, "r", sql`r.received_at`)}, 0, 0, 0, 0, 0, 0, 0, 0,
        count(distinct r.lead_id), count(distinct r.lead_id) filter (where r.intent = 'INTERESTED'), null
      from ${r.from} where ${r.where} and ${inPeriod(sql`r.received_at`, p)} group by 1
    )
    select k, ${SUMS}, max(last_sent_at) as last_sent_at
    from parts group by k`;
}

/** Every count of the scope, per key of `by` (campaign id, mailbox id, domain, UTC day, "<owner> <day>", or "all"). */
export async function countBy(db: DbOrTx, by: GroupBy, scope: CountScope): Promise<Map<string, Counts>> {
  if (scope.campaignIds?.length === 0 || scope.mailboxIds?.length === 0) return new Map();
  const rolled = await fromRollups(db, by, scope);
  if (rolled) return rolled;
  const rows = await selectRows<CountRow>(db, countsSql(by, scope));
  return new Map(rows.map((r) => [r.k, countsOf(r)]));
}

/**
 * The shapes the trigger-maintained rollups answer (lib/analytics/rollups.ts), the same numbers without
 * reading raw rows: campaigns' lifetimes (the campaign list) and the workspace's totals of a period
 * with nothing dated after it (the overview of the last N days). Null: count the raw rows.
 */
async function fromRollups(db: DbOrTx, by: GroupBy, s: CountScope): Promise<Map<string, Counts> | null> {
  if (s.mailboxIds || s.domain !== undefined) return null;
  if (by === "campaign" && !s.period && s.campaignIds) return campaignLifetimes(db, s.workspaceId, s.campaignIds);
  if (by === "workspace" && s.period && !s.campaignIds) {
    const t = await workspacePeriodTotals(db, s.workspaceId, s.period);
    return t ? new Map([["all", t]]) : null;
  }
  return null;
}

/** The scope's totals: one key. */
export async function countTotal(db: DbOrTx, scope: CountScope): Promise<Counts> {
  return (await countBy(db, "workspace", scope)).get("all") ?? ZERO;
}
