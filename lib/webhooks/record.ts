import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { deliveryStatusEnum, webhookDeliveries, webhooks } from "../../db/schema";
import type { SendResult, Target } from "./send";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** What recording an attempt needs of a delivery. */
export type Attempted = Pick<DeliveryRow, "id" | "attempts" | "isTest">;

/** 30 s, 1 min, 2 min, 4 min … after the n-th failed attempt. */
export function backoffMs(failedAttempts: number): number {
  return 30_000 * 2 ** Math.max(0, failedAttempts - 1);
}

/** The row after an attempt: delivered, retried after backoff, or FAILED at the attempt limit. */
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
const col = (c: { name: string }) => sql.identifier(c.name);

/**
 * Records many attempts in one statement (and releases their leases). Each outcome travels as a JSON
 * array [id, attempts, status, next attempt, status code, response, error, attempted at] in one
 * parameter. The rows are found by id through the primary key (`id = any(…)`): joined to the JSON
 * rows alone, the planner expects 100 of them and hashes the whole delivery log instead — a scan
 * that grows with the 30-day log.
 */
export async function recordAttempts(db: DbOrTx, rows: Outcome[]): Promise<void> {
  if (rows.length === 0) return;
  // The times go in as ISO text: a Date inside JSON.stringify leaves its fast path (~3 µs a Date).
  const json = JSON.stringify(
    rows.map((o) => [
      o.id,
      o.attempts,
      o.status,
      o.nextAttemptAt?.toISOString() ?? null,
      o.lastStatusCode,
      o.lastResponse,
      o.lastError,
      o.lastAttemptAt.toISOString(),
    ]),
  );
  const r = sql.raw("r");
  await db.execute(sql`
    update ${d} set ${col(d.attempts)} = (${r}->>1)::int, ${col(d.status)} = (${r}->>2)::${sql.identifier(deliveryStatusEnum.enumName)},
      ${col(d.nextAttemptAt)} = (${r}->>3)::timestamptz, ${col(d.leasedUntil)} = null, ${col(d.lastStatusCode)} = (${r}->>4)::int,
      ${col(d.lastResponse)} = ${r}->>5, ${col(d.lastError)} = ${r}->>6, ${col(d.lastAttemptAt)} = (${r}->>7)::timestamptz
    from jsonb_array_elements(${json}::jsonb) as ${r}
    where ${d.id} = ${r}->>0 and ${d.id} = ${anyOf(rows.map((o) => o.id))}`);
}

/**
 * Finished deliveries older than `days` (RETAIN_WEBHOOK_DELIVERIES_DAYS), at most `limit` per call: the
 * ids are read webhook by webhook from the log's (webhook, created) index, which serves the range (the
 * log has no index on its creation time alone: one index entry fewer per delivery, written and
 * rewritten at every attempt), and deleted through the primary key. Pending deliveries stay until they
 * finish, however old.
 */
export async function cleanupDeliveries(db: DbOrTx, now: Date, days = 30, limit = 20_000): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 24 * 3600_000).toISOString();
  const [{ n }] = await selectRows<{ n: number }>(
    db,
    sql`with gone as (
      delete from ${d} where ${d.id} = any(array(
        select ${d.id} from ${d} where ${d.webhookId} in (select ${webhooks.id} from ${webhooks})
          and ${d.createdAt} < ${cutoff}::timestamptz and ${d.status} <> 'PENDING'
        limit ${limit}))
      returning 1)
    select count(*)::int as n from gone`,
  );
  return n;
}
