import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { idSource, newEventId } from "../ids";
import { GroupCommit } from "../jobs/group-commit";
import { type Logger, stderrLogger } from "../log";

/** One open or click as the tracking endpoints see it. */
export interface Hit {
  emailId: string;
  kind: "OPEN" | "CLICK";
  url: string | null;
  at: Date;
}

type Row = { eid: string; evt: string; email_id: string; kind: string; url: string | null; at: string; fresh: boolean };

const ISO = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const KINDS = {
  OPEN: {
    column: sql.raw("opened_at"),
    event: "email.opened",
    data: sql`'openedAt', ${ISO("f.at")}`,
  },
  CLICK: {
    column: sql.raw("clicked_at"),
    event: "email.clicked",
    data: sql`'openedAt', case when f.opened_at is null then null else ${ISO("f.opened_at")} end, 'clickedAt', ${ISO("f.at")}, 'url', f.url`,
  },
} as const;

/**
 * One statement: the hits logged in email_events (when `log`), and each email's first hit of `kind`
 * taken. The update only matches rows whose column is still null, and a row is updated by one
 * statement at a time (the others wait, then see it set), so however many hits race — in one group or
 * in many processes — exactly one sets it and writes email.opened / email.clicked, atomically
 * with it. Without an explicit transaction: one statement is one round trip and is atomic on its own.
 * The update returns what the event needs (the first hit's time, url and event id, the mailbox's
 * address) so the event rows need no second join: joining `updated` back to `firsts` (both CTE scans,
 * no index) was a nested loop, quadratic in the group's size (512 first opens: 300 of 450 ms).
 */
function hitStatement(rows: Row[], kind: Hit["kind"], log: boolean) {
  const k = KINDS[kind];
  const logged = log
    ? sql`, logged as (
        insert into email_events (id, workspace_id, email_id, kind, url, created_at)
        select i.eid, e.workspace_id, i.email_id, i.kind::email_event_kind, i.url, i.at from input i join emails e on e.id = i.email_id
      )`
    : sql``;
  return sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(eid text, evt text, email_id text, kind text, url text, at timestamptz, fresh boolean)
    )${logged}, firsts as (
      select distinct on (email_id) email_id, at, url, evt from input where kind = ${kind} and fresh order by email_id, at, eid
    ), updated as (
      update emails e set ${k.column} = f.at from firsts f, mailboxes m
      where e.id = f.email_id and e.${k.column} is null and m.id = e.mailbox_id
      returning e.id, e.workspace_id, e.lead_email, e.campaign_id, e.opened_at, m.email as mailbox_email, f.at, f.url, f.evt
    ), fired as (
      insert into events (id, workspace_id, event, data, created_at)
      select f.evt, f.workspace_id, ${k.event}, jsonb_build_object('sendEventId', f.id, 'leadEmail', f.lead_email,
        'mailboxEmail', f.mailbox_email, 'campaignId', f.campaign_id, ${k.data}), f.at
      from updated f
      returning 1
    )
    select (select count(*) from fired)::int as n`;
}

/** Only the log of the hits: for a group in which no email can have its first hit of the kind. */
function logStatement(rows: Row[]) {
  return sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(eid text, email_id text, kind text, url text, at timestamptz)
    ), logged as (
      insert into email_events (id, workspace_id, email_id, kind, url, created_at)
      select i.eid, e.workspace_id, i.email_id, i.kind::email_event_kind, i.url, i.at from input i join emails e on e.id = i.email_id
      returning 1
    )
    select 0 as n`;
}

/**
 * Emails whose first open / first click is already written (a statement that held them committed:
 * it set the column or found it set; an unknown email counts too — there is nothing to set). Those
 * columns are never cleared, so their hits skip the update — and the statement-level triggers on
 * `emails` an update fires even when it matches nothing; a group of such hits is one insert. Bounded:
 * cleared past `max` ids per kind (forgetting only costs an update that matches nothing).
 */
export class KnownFirsts {
  private readonly sets = { OPEN: new Set<string>(), CLICK: new Set<string>() };
  constructor(private readonly max = 200_000) {}
  has(kind: Hit["kind"], emailId: string): boolean {
    return this.sets[kind].has(emailId);
  }
  add(kind: Hit["kind"], emailIds: Iterable<string>): void {
    const set = this.sets[kind];
    for (const id of emailIds) {
      if (set.size >= this.max) set.clear();
      set.add(id);
    }
  }
}

/**
 * Records many hits: one statement per kind present (the first also logs every hit), opens first so a
 * click's openedAt sees an open of the same group. Hits of unknown emails are dropped. With `known`,
 * hits of emails whose first hit is known to be written are only logged.
 */
export async function recordHits(db: DbOrTx, hits: readonly Hit[], known?: KnownFirsts): Promise<{ opened: number; clicked: number }> {
  const eid = idSource("eev", hits.length);
  const rows: Row[] = hits.map((h) => {
    const fresh = !known?.has(h.kind, h.emailId);
    return { eid: eid(), evt: fresh ? newEventId() : "", email_id: h.emailId, kind: h.kind, url: h.url, at: h.at.toISOString(), fresh };
  });
  const out = { opened: 0, clicked: 0 };
  const kinds = (["OPEN", "CLICK"] as const).filter((k) => rows.some((r) => r.kind === k));
  for (const [i, kind] of kinds.entries()) {
    const fresh = rows.filter((r) => r.kind === kind && r.fresh);
    if (!fresh.length && i > 0) continue; // logged by the first statement, nothing to set
    const statement = fresh.length ? hitStatement(rows, kind, i === 0) : logStatement(rows);
    const [r] = await retryDeadlock(() => selectRows<{ n: number }>(db, statement));
    out[kind === "OPEN" ? "opened" : "clicked"] = r.n;
    known?.add(
      kind,
      fresh.map((f) => f.email_id),
    );
  }
  return out;
}

/** Postgres's deadlock_detected, on the error or the cause Drizzle wraps it in. */
function isDeadlock(e: unknown): boolean {
  const code = (x: unknown) => (x && typeof x === "object" && "code" in x ? (x as { code: unknown }).code : undefined);
  return code(e) === "40P01" || code(e && typeof e === "object" && "cause" in e ? (e as { cause: unknown }).cause : undefined) === "40P01";
}

/**
 * Two processes writing groups that touch the same emails in another order can deadlock; Postgres
 * then rolls one statement back whole, so running it again (same ids) records its hits exactly once.
 */
export async function retryDeadlock<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (e) {
      if (i >= attempts || !isDeadlock(e)) throw e;
      await new Promise((r) => setTimeout(r, 5 * i + Math.floor(Math.random() * 10)));
    }
  }
}

type Queued = { hit: Hit; done: () => void };

/** Hits per statement at most (a bigger group is written in several statements, one after another). */
const CHUNK = 1000;

/**
 * The tracking endpoints' writer: hits that arrive while a group is being written go into the next
 * (lib/jobs/group-commit), so a burst of opens costs a few statements instead of one each.
 *
 * `record` settles at once while fewer than `backlog` hits wait to be written, so the pixel answers
 * without waiting for the database (a tracking answer never waits on, nor fails with, a write) and the
 * groups grow to what arrived during the previous write — hundreds of hits per statement under load
 * instead of at most as many as there are requests in flight. Past `backlog`, a hit's promise settles
 * when its group is written: the answers slow down to what the database takes, and the memory held is
 * bounded. The cost: hits answered but not yet written (at most `backlog`, normally a few ms' worth)
 * are lost if the process dies; `flush` writes them (tests, shutdown). A failed write is logged.
 */
export class TrackingWriter {
  private readonly group: GroupCommit<Queued>;
  private readonly known = new KnownFirsts();
  private waiting = 0;

  constructor(
    db: () => DbOrTx | Promise<DbOrTx>,
    log: Logger,
    private readonly backlog = 5000,
  ) {
    this.group = new GroupCommit<Queued>(
      async (items) => {
        try {
          const conn = await db();
          for (let i = 0; i < items.length; i += CHUNK) {
            await recordHits(
              conn,
              items.slice(i, i + CHUNK).map((q) => q.hit),
              this.known,
            );
          }
        } finally {
          this.waiting -= items.length;
          for (const i of items) i.done();
        }
      },
      (err, items) => log.error("[track] could not record hits", { count: items.length, error: String(err) }),
    );
  }

  record(hit: Hit): Promise<void> {
    const wait = this.waiting >= this.backlog;
    this.waiting++;
    if (!wait) {
      this.group.add({ hit, done: () => {} });
      return Promise.resolve();
    }
    return new Promise((done) => this.group.add({ hit, done }));
  }

  /** Resolves when every hit recorded so far is written. */
  flush(): Promise<void> {
    return this.group.flush();
  }
}

const g = globalThis as typeof globalThis & { __outreachTrackingWriter?: TrackingWriter };

/**
 * The process's one writer, on globalThis so that every bundle of the app (each route, the production
 * server's fast path) shares it: one group at a time per process; several processes are safe together.
 * Its database: DATABASE_URL, or the embedded server once it is up (resolveDatabaseUrl, awaited by the
 * first group rather than by every request).
 */
export function trackingWriter(db: () => DbOrTx | Promise<DbOrTx>): TrackingWriter {
  g.__outreachTrackingWriter ??= new TrackingWriter(db, stderrLogger);
  return g.__outreachTrackingWriter;
}
