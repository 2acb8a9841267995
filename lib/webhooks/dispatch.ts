import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { anyOf, bulkInsert } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { newId } from "../ids";

/** Events fanned out per transaction. */
export const DISPATCH_BATCH = 500;

/** The 6.1 envelope, serialised once: every retry and resend sends these exact bytes. */
export function envelope(e: { id: string; event: string; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, event: e.event, createdAt: e.createdAt.toISOString(), data: e.data });
}

/** Outbox → deliveries: each new event goes to the active webhooks of its workspace that subscribe to it. */
export async function dispatchEvents(db: DbOrTx, clock: Clock, limit = DISPATCH_BATCH): Promise<{ events: number; deliveries: number }> {
  return db.transaction(async (tx) => {
    const batch = await tx
      .select()
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(asc(events.createdAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (batch.length === 0) return { events: 0, deliveries: 0 };
    const workspaceIds = [...new Set(batch.map((e) => e.workspaceId))];
    const hooks = await tx
      .select({ id: webhooks.id, workspaceId: webhooks.workspaceId, events: webhooks.events })
      .from(webhooks)
      .where(and(sql`${webhooks.workspaceId} = ${anyOf(workspaceIds)}`, eq(webhooks.active, true)));
    const now = clock.now();
    const rows = batch.flatMap((e) =>
      hooks
        .filter((w) => w.workspaceId === e.workspaceId && w.events.includes(e.event))
        .map((w) => ({
          id: newId("dlv"),
          workspaceId: e.workspaceId,
          webhookId: w.id,
          eventId: e.id,
          event: e.event,
          body: envelope(e),
          nextAttemptAt: now,
          createdAt: now,
        })),
    );
    // One statement for the whole batch: the rows travel as a single JSON parameter.
    await bulkInsert(tx, webhookDeliveries, rows);
    const ids = batch.map((e) => e.id);
    await tx
      .update(events)
      .set({ dispatchedAt: now })
      .where(sql`${events.id} = ${anyOf(ids)}`);
    return { events: batch.length, deliveries: rows.length };
  });
}
