import type { JobCtx } from "../ctx";
import { lt, sql } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema";
import { selectRows } from "../../db/bulk";
import { retentionEnv } from "../env";
import { purgeAuditLog } from "../audit/read";
import { cleanupUploads } from "../inbox/files";
import { cleanupDeliveries } from "../webhooks/record";

const DAY_MS = 86_400_000;
/** Rows per retention statement: a run clears at most this many of each (the job runs every 5 minutes). */
const RETENTION_BATCH = 20_000;

/**
 * Tracking hits older than RETAIN_TRACKING_HITS_DAYS (settled ones: the first counted and machine hits
 * already sit on their email, so no number changes) and the bodies of emails sent more than
 * RETAIN_EMAIL_BODIES_DAYS ago (the row, its counts and its place in the conversation stay).
 */
async function purgeOldActivity(ctx: JobCtx): Promise<{ trackingHitsDeleted: number; emailBodiesCleared: number }> {
  const now = ctx.clock.now().getTime();
  const hitsBefore = new Date(now - retentionEnv.trackingHitsDays * DAY_MS).toISOString();
  const bodiesBefore = new Date(now - retentionEnv.emailBodiesDays * DAY_MS).toISOString();
  const [hits] = await selectRows<{ n: number }>(
    ctx.db,
    sql`with old as (
      select id from email_events where kind in ('OPEN', 'CLICK') and settled_at is not null and created_at < ${hitsBefore}::timestamptz
      limit ${RETENTION_BATCH}
    ), gone as (delete from email_events e using old where e.id = old.id returning 1)
    select count(*)::int as n from gone`,
  );
  const [bodies] = await selectRows<{ n: number }>(
    ctx.db,
    sql`with old as (
      select id from emails where created_at < ${bodiesBefore}::timestamptz and (body_text is not null or body_html is not null)
      limit ${RETENTION_BATCH}
    ), cleared as (update emails e set body_text = null, body_html = null from old where e.id = old.id returning 1)
    select count(*)::int as n from cleared`,
  );
  return { trackingHitsDeleted: hits.n, emailBodiesCleared: bodies.n };
}

/**
 * Retention clean-up: expired rate-limit windows, webhook deliveries older than 30 days, uploads unsent
 * after a day, audit rows older than 365 days, old tracking hits and sent bodies (purgeOldActivity).
 */
export async function runCleanup(ctx: JobCtx) {
  const cutoff = new Date(ctx.clock.now().getTime() - 3600_000).toISOString();
  const rows = await selectRows<{ key: string }>(
    ctx.db,
    sql`delete from rate_limit_counters where expire < ${cutoff}::timestamptz returning key`,
  );
  const webhookDeliveriesDeleted = await cleanupDeliveries(ctx.db, ctx.clock.now());
  const uploadsDeleted = await cleanupUploads(ctx.db, ctx.clock.now());
  await ctx.db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, ctx.clock.now())); // Idempotency-Keys live 24 h
  const auditRowsDeleted = await purgeAuditLog(ctx.db, ctx.clock.now()); // the audit log keeps 365 days
  const activity = await purgeOldActivity(ctx);
  return { rateLimitCountersDeleted: rows.length, webhookDeliveriesDeleted, uploadsDeleted, auditRowsDeleted, ...activity };
}
