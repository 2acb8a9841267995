import type { JobCtx } from "../ctx";
import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { retentionEnv } from "../env";
import { purgeAuditLog } from "../audit/read";
import { cleanupUploads } from "../inbox/files";
import { cleanupDeliveries } from "../webhooks/record";
import { releaseCleanupLease, takeCleanupLease } from "./lease";

const DAY_MS = 86_400_000;
/**
 * Rows per retention statement: a run clears at most this many of each kind (the job runs every 5
 * minutes). Every statement picks its ids with `limit` and commits on its own, so none holds row locks
 * for long, and it locks only the old rows it removes: sending, which writes new rows, never waits on it.
 */
export const RETENTION_BATCH = 20_000;

/** Runs `del` (a delete or update of at most a batch) and counts the rows it touched. */
async function counted(db: DbOrTx, del: SQL): Promise<number> {
  const [row] = await selectRows<{ n: number }>(db, sql`with gone as (${del} returning 1) select count(*)::int as n from gone`);
  return row.n;
}

/**
 * Tracking hits older than RETAIN_TRACKING_HITS_DAYS (settled ones: the first counted and machine hits
 * already sit on their email, so no number changes) and the bodies of emails sent more than
 * RETAIN_EMAIL_BODIES_DAYS ago (the row, its counts and its place in the conversation stay).
 */
async function purgeOldActivity(ctx: JobCtx, batch: number): Promise<{ trackingHitsDeleted: number; emailBodiesCleared: number }> {
  const now = ctx.clock.now().getTime();
  const hitsBefore = new Date(now - retentionEnv.trackingHitsDays * DAY_MS).toISOString();
  const bodiesBefore = new Date(now - retentionEnv.emailBodiesDays * DAY_MS).toISOString();
  const trackingHitsDeleted = await counted(
    ctx.db,
    sql`delete from email_events where id = any(array(
      select id from email_events where kind in ('OPEN', 'CLICK') and settled_at is not null and created_at < ${hitsBefore}::timestamptz
      limit ${batch}))`,
  );
  const emailBodiesCleared = await counted(
    ctx.db,
    sql`update emails set body_text = null, body_html = null where id = any(array(
      select id from emails where created_at < ${bodiesBefore}::timestamptz and (body_text is not null or body_html is not null)
      limit ${batch}))`,
  );
  return { trackingHitsDeleted, emailBodiesCleared };
}

/** Rows removed (or bodies cleared) per kind in one run. */
export type CleanupCounts = Record<
  | "rateLimitCountersDeleted"
  | "webhookDeliveriesDeleted"
  | "uploadsDeleted"
  | "idempotencyKeysDeleted"
  | "auditRowsDeleted"
  | "trackingHitsDeleted"
  | "emailBodiesCleared",
  number
>;

/** One pass over every kind, each statement limited to `batch` rows. */
async function cleanOnce(ctx: JobCtx, batch: number): Promise<CleanupCounts> {
  const now = ctx.clock.now();
  const windowsBefore = new Date(now.getTime() - 3600_000).toISOString();
  const rateLimitCountersDeleted = await counted(
    ctx.db,
    sql`delete from rate_limit_counters where key = any(array(
      select key from rate_limit_counters where expire < ${windowsBefore}::timestamptz limit ${batch}))`,
  );
  const webhookDeliveriesDeleted = await cleanupDeliveries(ctx.db, now, retentionEnv.webhookDeliveriesDays, batch);
  const uploadsDeleted = await cleanupUploads(ctx.db, now, batch); // uploads unsent after a day
  // Idempotency-Keys live 24 h; the table's key is (workspace, key), so the batch goes by row address.
  const idempotencyKeysDeleted = await counted(
    ctx.db,
    sql`delete from idempotency_keys where ctid = any(array(
      select ctid from idempotency_keys where expires_at < ${now.toISOString()}::timestamptz limit ${batch}))`,
  );
  const auditRowsDeleted = await purgeAuditLog(ctx.db, now, batch); // the audit log keeps 365 days
  const activity = await purgeOldActivity(ctx, batch);
  return { rateLimitCountersDeleted, webhookDeliveriesDeleted, uploadsDeleted, idempotencyKeysDeleted, auditRowsDeleted, ...activity };
}

const NOTHING: CleanupCounts = {
  rateLimitCountersDeleted: 0,
  webhookDeliveriesDeleted: 0,
  uploadsDeleted: 0,
  idempotencyKeysDeleted: 0,
  auditRowsDeleted: 0,
  trackingHitsDeleted: 0,
  emailBodiesCleared: 0,
};

/**
 * Retention clean-up (docs/operations.md, "Retention"): expired rate-limit windows and Idempotency-Keys,
 * finished webhook deliveries older than RETAIN_WEBHOOK_DELIVERIES_DAYS, uploads unsent after a day,
 * audit rows older than 365 days, old tracking hits and sent bodies. The events outbox needs nothing:
 * the webhook job deletes each event as it dispatches it, and an event not yet dispatched is kept
 * however old. One run at a time (the lease); a run that finds it held does nothing and says so.
 */
export async function runCleanup(ctx: JobCtx, batch = RETENTION_BATCH): Promise<CleanupCounts & { skipped?: string }> {
  const lease = await takeCleanupLease(ctx.db, ctx.clock.now());
  if (!lease) return { skipped: "another run holds the clean-up lease", ...NOTHING };
  try {
    return await cleanOnce(ctx, batch);
  } finally {
    await releaseCleanupLease(ctx.db, lease, ctx.clock.now());
  }
}
