import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx, Tx } from "../../db/client";
import { newEventId, newId } from "../ids";
import { GroupCommit } from "../jobs/group-commit";
import { type Logger, stderrLogger } from "../log";

/** One open or click as the tracking endpoints see it. */
export interface Hit {
  emailId: string;
  kind: "OPEN" | "CLICK";
  url: string | null;
  at: Date;
}

type Row = { eid: string; evt: string; email_id: string; kind: string; url: string | null; at: string };

const ISO = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Every hit logged in email_events, and each email's first open taken in one statement: the update
 * only matches rows whose opened_at is still null, and a row is updated by one transaction at a time
 * (the others wait, then see it set), so however many opens race — in one batch or in many processes
 * — exactly one sets opened_at and writes email.opened (spec 6.2), in the same transaction.
 */
function openStatement(rows: Row[]) {
  return sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(eid text, evt text, email_id text, kind text, url text, at timestamptz)
    ), known as (
      select i.*, e.workspace_id from input i join emails e on e.id = i.email_id
    ), logged as (
      insert into email_events (id, workspace_id, email_id, kind, url, created_at)
      select eid, workspace_id, email_id, kind::email_event_kind, url, at from known
    ), firsts as (
      select distinct on (email_id) email_id, at, evt from known where kind = 'OPEN' order by email_id, at, eid
    ), opened as (
      update emails e set opened_at = f.at from firsts f
      where e.id = f.email_id and e.opened_at is null
      returning e.id, e.workspace_id, e.lead_email, e.campaign_id, e.mailbox_id, e.opened_at, f.evt
    ), fired as (
      insert into events (id, workspace_id, event, data, created_at)
      select o.evt, o.workspace_id, 'email.opened', jsonb_build_object('sendEventId', o.id, 'leadEmail', o.lead_email,
        'mailboxEmail', m.email, 'campaignId', o.campaign_id, 'openedAt', ${ISO("o.opened_at")}), o.opened_at
      from opened o join mailboxes m on m.id = o.mailbox_id
      returning 1
    )
    select (select count(*) from fired)::int as n`;
}

/** The first click of each email, as openStatement does for opens (its events were logged there). */
function clickStatement(rows: Row[]) {
  return sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(eid text, evt text, email_id text, kind text, url text, at timestamptz)
    ), firsts as (
      select distinct on (email_id) email_id, at, url, evt from input where kind = 'CLICK' order by email_id, at, eid
    ), clicked as (
      update emails e set clicked_at = f.at from firsts f
      where e.id = f.email_id and e.clicked_at is null
      returning e.id, e.workspace_id, e.lead_email, e.campaign_id, e.mailbox_id, e.opened_at, e.clicked_at, f.url, f.evt
    ), fired as (
      insert into events (id, workspace_id, event, data, created_at)
      select c.evt, c.workspace_id, 'email.clicked', jsonb_build_object('sendEventId', c.id, 'leadEmail', c.lead_email,
        'mailboxEmail', m.email, 'campaignId', c.campaign_id,
        'openedAt', case when c.opened_at is null then null else ${ISO("c.opened_at")} end,
        'clickedAt', ${ISO("c.clicked_at")}, 'url', c.url), c.clicked_at
      from clicked c join mailboxes m on m.id = c.mailbox_id
      returning 1
    )
    select (select count(*) from fired)::int as n`;
}

/**
 * Records many hits in one transaction (two statements: opens with the event log, then clicks, so a
 * click's openedAt sees an open of the same batch). Hits of unknown emails are dropped.
 */
export async function recordHits(db: DbOrTx, hits: readonly Hit[]): Promise<{ opened: number; clicked: number }> {
  if (hits.length === 0) return { opened: 0, clicked: 0 };
  const rows: Row[] = hits.map((h) => ({
    eid: newId("eev"),
    evt: newEventId(),
    email_id: h.emailId,
    kind: h.kind,
    url: h.url,
    at: h.at.toISOString(),
  }));
  const tx = db as DbOrTx & { transaction: <T>(f: (tx: Tx) => Promise<T>) => Promise<T> };
  return tx.transaction(async (t) => {
    const [o] = await selectRows<{ n: number }>(t, openStatement(rows));
    const clicks = rows.filter((r) => r.kind === "CLICK");
    const [c] = clicks.length ? await selectRows<{ n: number }>(t, clickStatement(clicks)) : [{ n: 0 }];
    return { opened: o.n, clicked: c.n };
  });
}

type Queued = { hit: Hit; done: () => void };

/**
 * The tracking endpoints' writer: hits that arrive while a group is being written go into the next
 * (lib/jobs/group-commit), so a burst of opens costs a few transactions instead of one each, and each
 * caller's promise settles when its group is written — the pixel still answers after its hit is
 * recorded. A failed write is logged and settles its callers too: a tracking answer never fails.
 */
export class TrackingWriter {
  private readonly group: GroupCommit<Queued>;

  constructor(db: () => DbOrTx, log: Logger) {
    this.group = new GroupCommit<Queued>(
      async (items) => {
        try {
          await recordHits(
            db(),
            items.map((i) => i.hit),
          );
        } finally {
          for (const i of items) i.done();
        }
      },
      (err, items) => log.error("[track] could not record hits", { count: items.length, error: String(err) }),
    );
  }

  record(hit: Hit): Promise<void> {
    return new Promise((done) => this.group.add({ hit, done }));
  }
}

let shared: TrackingWriter | undefined;

/** The process's one writer (one group at a time per process; several processes are safe together). */
export function trackingWriter(db: () => DbOrTx): TrackingWriter {
  shared ??= new TrackingWriter(db, stderrLogger);
  return shared;
}
