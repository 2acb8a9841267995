import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { idSource } from "../ids";
import { ipRangeOf } from "./engagement-facts";
import { GroupCommit } from "../jobs/group-commit";
import { type Logger, stderrLogger } from "../log";

/** One open or click as the tracking endpoints see it: the email, and what the request showed. */
export interface Hit {
  emailId: string;
  kind: "OPEN" | "CLICK";
  url: string | null;
  at: Date;
  method?: "GET" | "HEAD";
  userAgent?: string | null;
  ip?: string | null;
}

type Row = {
  eid: string;
  email_id: string;
  kind: string;
  url: string | null;
  at: string;
  method: string;
  ua: string | null;
  ip: string | null;
  rng: string | null;
};

/**
 * Logs many hits in one statement, unsettled: their class, and each email's first counted (and first
 * machine) open and click with email.opened / email.clicked, are decided a few seconds later by the
 * settling pass (lib/analytics/tracking-settle.ts), once the hits around each one are in. Hits of
 * unknown emails are dropped. Returns how many were logged.
 */
export async function recordHits(db: DbOrTx, hits: readonly Hit[]): Promise<number> {
  const eid = idSource("eev", hits.length);
  const rows: Row[] = hits.map((h) => ({
    eid: eid(),
    email_id: h.emailId,
    kind: h.kind,
    url: h.url,
    at: h.at.toISOString(),
    method: h.method ?? "GET",
    ua: h.userAgent ?? null,
    ip: h.ip ?? null,
    rng: ipRangeOf(h.ip),
  }));
  const [r] = await retryDeadlock(() =>
    selectRows<{ n: number }>(
      db,
      sql`
      with input as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as x(eid text, email_id text, kind text, url text, at timestamptz, method text, ua text, ip text, rng text)
      ), logged as (
        insert into email_events (id, workspace_id, email_id, kind, url, method, user_agent, ip, ip_range, created_at)
        select i.eid, e.workspace_id, i.email_id, i.kind::email_event_kind, i.url, i.method, i.ua, i.ip, i.rng, i.at
        from input i join emails e on e.id = i.email_id
        returning 1
      )
      select count(*)::int as n from logged`,
    ),
  );
  return r.n;
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
  private waiting = 0;

  constructor(
    db: () => DbOrTx | Promise<DbOrTx>,
    log: Logger,
    private readonly backlog = 5000,
    /** Called after each written group (the settling pass is scheduled from it). */
    afterWrite: () => void = () => {},
  ) {
    this.group = new GroupCommit<Queued>(
      async (items) => {
        try {
          const conn = await db();
          for (let i = 0; i < items.length; i += CHUNK) {
            await recordHits(
              conn,
              items.slice(i, i + CHUNK).map((q) => q.hit),
            );
          }
          afterWrite();
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
export function trackingWriter(db: () => DbOrTx | Promise<DbOrTx>, afterWrite?: () => void): TrackingWriter {
  g.__outreachTrackingWriter ??= new TrackingWriter(db, stderrLogger, 5000, afterWrite);
  return g.__outreachTrackingWriter;
}
