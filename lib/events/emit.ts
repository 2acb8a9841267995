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
  | "lead.branched"
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
