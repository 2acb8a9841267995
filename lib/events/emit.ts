import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { newEventId } from "../ids";

/** Section 6 event names. */
export type EventName =
  | "email.sent"
  | "email.opened"
  | "email.clicked"
  | "email.bounced"
  | "email.replied"
  | "email.positive_reply"
  | "lead.unsubscribed"
  | "mailbox.disconnected"
  | "mailbox.reconnected"
  | "warmup.status_changed"
  | "placement.completed"
  | "mailbox.bounce_spike"
  | "webhook.test";

/**
 * Records an event in the outbox. Call it with the transaction that makes the change, so the event
 * exists exactly when the change does; the webhook job delivers it later.
 */
export async function emitEvent(
  tx: DbOrTx,
  workspaceId: string,
  event: EventName,
  data: Record<string, unknown>,
  at: Date,
): Promise<string> {
  const id = newEventId();
  await tx.insert(events).values({ id, workspaceId, event, data, createdAt: at });
  return id;
}

export interface EventRow {
  workspaceId: string;
  event: EventName;
  data: Record<string, unknown>;
  at: Date;
}

/** emitEvent for many rows: one multi-row insert into the outbox, in the caller's transaction. Ids in row order. */
export async function emitEvents(tx: DbOrTx, rows: EventRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = rows.map(() => newEventId());
  await tx.insert(events).values(rows.map((r, i) => ({ id: ids[i], workspaceId: r.workspaceId, event: r.event, data: r.data, createdAt: r.at })));
  return ids;
}
