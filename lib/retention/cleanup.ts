import type { JobCtx } from "../ctx";
import { lt, sql } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema";
import { selectRows } from "../../db/bulk";
import { purgeAuditLog } from "../audit/read";
import { cleanupUploads } from "../inbox/files";
import { cleanupDeliveries } from "../webhooks/record";

/**
 * Retention clean-up: expired rate-limit windows, webhook deliveries older than 30 days, uploads unsent
 * after a day, audit rows older than 365 days.
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
  return { rateLimitCountersDeleted: rows.length, webhookDeliveriesDeleted, uploadsDeleted, auditRowsDeleted };
}
