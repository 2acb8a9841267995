import { and, lt, ne, sql } from "drizzle-orm";
import { anyOf, recordset } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries } from "../../db/schema";
import type { SendResult, Target } from "./send";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** What recording an attempt needs of a delivery. */
export type Attempted = Pick<DeliveryRow, "id" | "attempts" | "isTest">;

/** 30 s, 1 min, 2 min, 4 min … after the n-th failed attempt (spec 6.5 rule 2). */
export function backoffMs(failedAttempts: number): number {
  return 30_000 * 2 ** Math.max(0, failedAttempts - 1);
}

/** The row after an attempt: delivered, retried after backoff, or FAILED at the attempt limit (spec 3.5). */
export function afterAttempt(d: Attempted, w: Pick<Target, "retryAttempts">, r: SendResult, now: Date) {
  const attempts = d.attempts + 1;
  const finished = r.delivered || d.isTest || attempts >= w.retryAttempts;
  const status: DeliveryRow["status"] = r.delivered ? "DELIVERED" : finished ? "FAILED" : "PENDING";
  return {
    id: d.id,
    attempts,
    status,
    nextAttemptAt: finished ? null : new Date(now.getTime() + backoffMs(attempts)),
    lastStatusCode: r.statusCode,
    lastResponse: r.response,
    lastError: r.error,
    lastAttemptAt: now,
  };
}

export type Outcome = ReturnType<typeof afterAttempt>;

const d = webhookDeliveries;
const shape = {
  id: d.id,
  attempts: d.attempts,
  status: d.status,
  nextAttemptAt: d.nextAttemptAt,
  lastStatusCode: d.lastStatusCode,
  lastResponse: d.lastResponse,
  lastError: d.lastError,
  lastAttemptAt: d.lastAttemptAt,
};

/**
 * Records many attempts in one statement (and releases their leases). The rows are also found by id
 * through the primary key (`id = any(…)`): joined to the recordset alone, the planner expects 100
 * rows from it and hashes the whole delivery log instead — a scan that grows with the 30-day log.
 */
export async function recordAttempts(db: DbOrTx, rows: Outcome[]): Promise<void> {
  if (rows.length === 0) return;
  const v = recordset("v", shape, rows);
  await db.execute(sql`
    update ${d} set ${sql.identifier(d.attempts.name)} = ${v.col("attempts")}, ${sql.identifier(d.status.name)} = ${v.col("status")},
      ${sql.identifier(d.nextAttemptAt.name)} = ${v.col("nextAttemptAt")}, ${sql.identifier(d.leasedUntil.name)} = null,
      ${sql.identifier(d.lastStatusCode.name)} = ${v.col("lastStatusCode")}, ${sql.identifier(d.lastResponse.name)} = ${v.col("lastResponse")},
      ${sql.identifier(d.lastError.name)} = ${v.col("lastError")}, ${sql.identifier(d.lastAttemptAt.name)} = ${v.col("lastAttemptAt")}
    from ${v.from}
    where ${d.id} = ${v.col("id")} and ${d.id} = ${anyOf(rows.map((r) => r.id))}`);
}

/** The delivery log is kept for 30 days (spec 6.5 rule 3). */
export async function cleanupDeliveries(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 30 * 24 * 3600_000);
  const rows = await db
    .delete(webhookDeliveries)
    .where(and(lt(webhookDeliveries.createdAt, cutoff), ne(webhookDeliveries.status, "PENDING")))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
