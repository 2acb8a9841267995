import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { newEventId } from "../ids";
import { classifyHit, countsAsPerson, RANGE_LEADS } from "./engagement";
import { BURST_SECONDS, type EngagementClass, type HitFacts } from "./engagement-facts";
import { retryDeadlock } from "./tracking-writer";

/** A hit waits this long unsettled, so the hits of its burst (up to BURST_SECONDS later) are in. */
export const SETTLE_AFTER_MS = BURST_SECONDS * 1000;
/** Hits per settling statement group. */
const BATCH = 2000;
/** A network's distinct emails are counted up to this (RANGE_LEADS others plus the hit's own email). */
const RANGE_CAP = sql.raw(String(RANGE_LEADS + 1));
/** Hits of a network's window read before deciding whether the whole window must be counted. */
const RANGE_SAMPLE = sql.raw("500");

type Due = {
  id: string;
  email_id: string;
  kind: "OPEN" | "CLICK";
  url: string | null;
  at: string;
  method: string | null;
  user_agent: string | null;
  ip: string | null;
  seconds_since_sent: number | null;
  count_all: boolean;
  opens_before: number;
  at_ms: number;
  other_hits: number;
  range_emails: number;
};

/**
 * The unsettled hits old enough to settle (all of them when `cutoff` is null), locked for this pass
 * (others skip them), with the context the classifier reads: the other hits of the same email around
 * each, and the other emails its network hit within a minute.
 */
function dueStatement(cutoff: Date | null) {
  const burst = sql.raw(`interval '${BURST_SECONDS} seconds'`);
  // Context by window functions over the due emails' hits and each network's distinct emails per minute:
  // linear in the hits, where a subquery per hit was quadratic in a burst (1,000 opens of one email; a
  // network such as Gmail's proxies over thousands of leads). The other links are counted in code
  // (otherLinks): the planner, with no row counts for CTEs, joined them as a nested loop.
  return sql`
    with due as (
      select id, email_id, created_at, ip_range from email_events
      where settled_at is null and kind in ('OPEN', 'CLICK') ${cutoff ? sql`and created_at <= ${cutoff.toISOString()}::timestamptz` : sql``}
      order by created_at limit ${BATCH} for update skip locked
    ), around as materialized (
      select o.id, o.email_id, o.kind, o.url, o.method, o.user_agent, o.ip, o.ip_range, o.created_at, o.id in (select id from due) as is_due,
        count(*) filter (where o.kind = 'OPEN') over (partition by o.email_id order by o.created_at
          range between unbounded preceding and interval '1 microsecond' preceding) as opens_before,
        count(*) over (partition by o.email_id order by o.created_at range between ${burst} preceding and ${burst} following) - 1 as other_hits
      from email_events o where o.email_id in (select email_id from due) and o.kind in ('OPEN', 'CLICK')
    ), keys as (
      select distinct ip_range, date_trunc('minute', created_at) as m from due where ip_range is not null
    ), nets as materialized (
      -- per network and minute of the due hits: the distinct emails it hit in that minute and the ones either side,
      -- counted up to ${RANGE_CAP} (the classifier asks only whether it reached RANGE_LEADS others). The first
      -- ${RANGE_SAMPLE} hits of the window (by the ip_range index) answer a busy network at once; only a window with more
      -- hits than that and too few emails among them is counted in full.
      select k.ip_range, k.m, (
        select case when s.n >= ${RANGE_CAP} or s.rows < ${RANGE_SAMPLE} then s.n else (
          select count(distinct o.email_id) from email_events o
          where o.ip_range = k.ip_range and o.created_at >= k.m - interval '1 minute' and o.created_at < k.m + interval '2 minutes'
        ) end
        from (select count(distinct x.email_id) as n, count(*) as rows from (
          select o.email_id from email_events o
          where o.ip_range = k.ip_range and o.created_at >= k.m - interval '1 minute' and o.created_at < k.m + interval '2 minutes'
          limit ${RANGE_SAMPLE}) x) s
      )::int as emails
      from keys k
    )
    select h.id, h.email_id, h.kind, h.url, h.method, h.user_agent, h.ip,
      to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
      extract(epoch from h.created_at - e.sent_at)::float8 as seconds_since_sent,
      coalesce((w.settings->>'countMachineEngagement')::boolean, false) as count_all,
      h.opens_before::int as opens_before, h.other_hits::int as other_hits,
      (extract(epoch from h.created_at) * 1000)::float8 as at_ms,
      coalesce((select n.emails - 1 from nets n where n.ip_range = h.ip_range and n.m = date_trunc('minute', h.created_at)), 0) as range_emails
    from around h join emails e on e.id = h.email_id join workspaces w on w.id = e.workspace_id
    where h.is_due`;
}

/**
 * For each due hit, the distinct other links of its email clicked within BURST_SECONDS either side:
 * one read of the due emails' clicks (by the email index), then a pass per email in code.
 */
async function otherLinks(tx: DbOrTx, due: Due[]): Promise<Map<string, number>> {
  const emailIds = [...new Set(due.map((d) => d.email_id))];
  const clicks = await selectRows<{ email_id: string; url: string | null; ms: number }>(
    tx,
    sql`select email_id, url, (extract(epoch from created_at) * 1000)::float8 as ms from email_events
      where email_id = ${anyOf(emailIds)} and kind = 'CLICK'`,
  );
  const byEmail = new Map<string, { url: string | null; ms: number }[]>();
  for (const c of clicks) byEmail.set(c.email_id, [...(byEmail.get(c.email_id) ?? []), c]);
  const out = new Map<string, number>();
  const window = BURST_SECONDS * 1000;
  for (const d of due) {
    const near = (byEmail.get(d.email_id) ?? []).filter((c) => c.url !== d.url && Math.abs(c.ms - d.at_ms) <= window);
    out.set(d.id, new Set(near.map((c) => c.url)).size);
  }
  return out;
}

function factsOf(d: Due, otherLinksNearby: number): HitFacts {
  return {
    kind: d.kind,
    method: d.method === "HEAD" ? "HEAD" : "GET",
    userAgent: d.user_agent,
    ip: d.ip,
    secondsSinceSent: d.seconds_since_sent,
    opensBefore: d.opens_before,
    otherLinksNearby,
    otherHitsNearby: d.other_hits,
    rangeEmailsNearby: d.range_emails,
  };
}

type Settled = {
  id: string;
  email_id: string;
  kind: string;
  url: string | null;
  at: string;
  cls: EngagementClass;
  reason: string;
  counted: boolean;
  evt: string;
};

const ISO = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
const KINDS = {
  OPEN: {
    column: sql.raw("opened_at"),
    machine: sql.raw("machine_opened_at"),
    event: "email.opened",
    data: sql`'openedAt', ${ISO("f.at")}`,
  },
  CLICK: {
    column: sql.raw("clicked_at"),
    machine: sql.raw("machine_clicked_at"),
    event: "email.clicked",
    data: sql`'openedAt', case when f.opened_at is null then null else ${ISO("f.opened_at")} end, 'clickedAt', ${ISO("f.at")}, 'url', f.url`,
  },
} as const;

const input = (rows: Settled[]) => sql`input as (
  select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
    as x(id text, email_id text, kind text, url text, at timestamptz, cls text, reason text, counted boolean, evt text)
)`;

/**
 * Each email's first counted hit of `kind` onto the email, with its event. The update matches only
 * rows whose column is still null, so of hits settled by many passes at once exactly one sets it and
 * writes email.opened / email.clicked, atomically with it.
 */
function firstsStatement(rows: Settled[], kind: "OPEN" | "CLICK") {
  const k = KINDS[kind];
  return sql`
    with ${input(rows)}, firsts as (
      select distinct on (email_id) email_id, at, url, evt, cls from input where kind = ${kind} and counted order by email_id, at, id
    ), updated as (
      update emails e set ${k.column} = f.at from firsts f, mailboxes m
      where e.id = f.email_id and e.${k.column} is null and m.id = e.mailbox_id
      returning e.id, e.workspace_id, e.lead_email, e.campaign_id, e.opened_at, m.email as mailbox_email, f.at, f.url, f.evt, f.cls
    ), fired as (
      insert into events (id, workspace_id, event, data, created_at)
      select f.evt, f.workspace_id, ${k.event}, jsonb_build_object('sendEventId', f.id, 'leadEmail', f.lead_email,
        'mailboxEmail', f.mailbox_email, 'campaignId', f.campaign_id, 'class', f.cls, ${k.data}), f.at
      from updated f
      returning 1
    )
    select (select count(*) from fired)::int as n`;
}

/** Each email's first machine hit of `kind` (a statement of its own: one statement updates a row once). */
function machineStatement(rows: Settled[], kind: "OPEN" | "CLICK") {
  const k = KINDS[kind];
  return sql`
    with ${input(rows)}, machine as (
      select distinct on (email_id) email_id, at from input where kind = ${kind} and cls in ('proxy', 'scanner') order by email_id, at, id
    )
    update emails e set ${k.machine} = m.at from machine m where e.id = m.email_id and e.${k.machine} is null`;
}

export interface SettleResult {
  settled: number;
  opened: number;
  clicked: number;
  byClass: Record<EngagementClass, number>;
}

/**
 * One settling pass over at most BATCH hits: classifies each (lib/analytics/engagement.ts), writes the
 * class and reason onto it, and each email's first counted and first machine open and click — one
 * transaction, so a pass that fails leaves its hits unsettled for the next. Hits older than
 * SETTLE_AFTER_MS before `now` (every unsettled hit with `all`).
 */
export async function settleHits(db: DbOrTx, now: Date, opts: { all?: boolean } = {}): Promise<SettleResult> {
  const cutoff = opts.all ? null : new Date(now.getTime() - SETTLE_AFTER_MS);
  return retryDeadlock(() =>
    db.transaction(async (tx) => {
      const due = await selectRows<Due>(tx, dueStatement(cutoff));
      const out: SettleResult = { settled: due.length, opened: 0, clicked: 0, byClass: { human: 0, proxy: 0, scanner: 0, unknown: 0 } };
      if (!due.length) return out;
      const links = await otherLinks(tx, due);
      const rows: Settled[] = due.map((d) => {
        const v = classifyHit(factsOf(d, links.get(d.id) ?? 0));
        out.byClass[v.class]++;
        const counted = d.count_all || countsAsPerson(v.class);
        return {
          id: d.id,
          email_id: d.email_id,
          kind: d.kind,
          url: d.url,
          at: d.at,
          cls: v.class,
          reason: v.reason,
          counted,
          evt: counted ? newEventId() : "",
        };
      });
      await tx.execute(sql`
        with ${input(rows)}
        update email_events h set class = i.cls::engagement_class, reason = i.reason, settled_at = ${now.toISOString()}::timestamptz
        from input i where h.id = i.id`);
      for (const kind of ["OPEN", "CLICK"] as const) {
        if (!rows.some((r) => r.kind === kind)) continue;
        const [r] = await selectRows<{ n: number }>(tx, firstsStatement(rows, kind));
        out[kind === "OPEN" ? "opened" : "clicked"] = r.n;
        if (rows.some((x) => x.kind === kind && (x.cls === "proxy" || x.cls === "scanner"))) await tx.execute(machineStatement(rows, kind));
      }
      return out;
    }),
  );
}

/** Settles until nothing is due (a backlog is more than one batch). */
export async function settleAllDue(db: DbOrTx, now: Date, opts: { all?: boolean } = {}): Promise<SettleResult> {
  const total: SettleResult = { settled: 0, opened: 0, clicked: 0, byClass: { human: 0, proxy: 0, scanner: 0, unknown: 0 } };
  for (;;) {
    const r = await settleHits(db, now, opts);
    total.settled += r.settled;
    total.opened += r.opened;
    total.clicked += r.clicked;
    for (const c of Object.keys(r.byClass) as EngagementClass[]) total.byClass[c] += r.byClass[c];
    if (r.settled < BATCH) return total;
  }
}
