import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { anyOf, bulkInsert } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { newId } from "../ids";
import { type Claimed, LEASE_MS } from "./claim";

/** Events fanned out per transaction. */
export const DISPATCH_BATCH = 500;

/** The 6.1 envelope, serialised once: every retry and resend sends these exact bytes. */
export function envelope(e: { id: string; event: string; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, event: e.event, createdAt: e.createdAt.toISOString(), data: e.data });
}

export interface Dispatched {
  events: number;
  deliveries: number;
  /** With `lease`: the new deliveries, leased to the caller, with what sending them needs. */
  leased: Claimed[];
}

/**
 * Outbox → deliveries: each new event goes to the active webhooks of its workspace that subscribe to it.
 * With `lease`, the deliveries are made leased to the caller, who sends them once this commits — no
 * claim has to write them again and read their bodies back; if the caller dies, the lease runs out and
 * they are claimed like any due delivery.
 */
export async function dispatchEvents(
  db: DbOrTx,
  clock: Clock,
  limit = DISPATCH_BATCH,
  opts: { lease?: boolean } = {},
): Promise<Dispatched> {
  return db.transaction(async (tx) => {
    const batch = await tx
      .select()
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(asc(events.createdAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (batch.length === 0) return { events: 0, deliveries: 0, leased: [] };
    const workspaceIds = [...new Set(batch.map((e) => e.workspaceId))];
    const hooks = await tx
      .select({
        id: webhooks.id,
        workspaceId: webhooks.workspaceId,
        events: webhooks.events,
        url: webhooks.url,
        timeoutMs: webhooks.timeoutMs,
        retryAttempts: webhooks.retryAttempts,
        secretEnc: webhooks.secretEnc,
        previousSecretEnc: webhooks.previousSecretEnc,
        previousSecretExpiresAt: webhooks.previousSecretExpiresAt,
      })
      .from(webhooks)
      .where(and(sql`${webhooks.workspaceId} = ${anyOf(workspaceIds)}`, eq(webhooks.active, true)));
    const now = clock.now();
    const leasedUntil = opts.lease ? new Date(now.getTime() + LEASE_MS) : null;
    const rows = [];
    const leased: Claimed[] = [];
    for (const e of batch) {
      const body = envelope(e);
      for (const w of hooks) {
        if (w.workspaceId !== e.workspaceId || !w.events.includes(e.event)) continue;
        const row = { id: newId("dlv"), workspaceId: e.workspaceId, webhookId: w.id, eventId: e.id, event: e.event, body };
        rows.push({ ...row, nextAttemptAt: now, leasedUntil, createdAt: now });
        if (opts.lease) leased.push({ ...row, attempts: 0, isTest: false, target: w });
      }
    }
    // One statement for the whole batch: the rows travel as a single JSON parameter.
    await bulkInsert(tx, webhookDeliveries, rows);
    const ids = batch.map((e) => e.id);
    await tx
      .update(events)
      .set({ dispatchedAt: now })
      .where(sql`${events.id} = ${anyOf(ids)}`);
    return { events: batch.length, deliveries: rows.length, leased };
  });
}
