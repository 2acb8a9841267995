import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxes } from "../../db/schema";
import { emitEvent } from "../events/emit";
import type { WarmupStatus } from "../mailboxes/warmup-ramp";

/** Why a warmup status changed: the `reason` of `warmup.status_changed`. */
export type WarmupReason =
  | "started"
  | "restarted"
  | "paused"
  | "resumed"
  | "next_stage"
  | "steady"
  | "settings_changed"
  | "bounce_spike"
  | "auto_pause_lifted";

export interface StatusMove {
  mailboxId: string;
  workspaceId: string;
  email: string;
  from: WarmupStatus;
  to: WarmupStatus;
  reason: WarmupReason;
}

/**
 * Moves a mailbox's warmup status and records `warmup.status_changed` in the same transaction — once
 * per real change: a move to the status it already has writes nothing.
 */
export async function moveWarmupStatus(tx: DbOrTx, m: StatusMove, now: Date): Promise<boolean> {
  if (m.from === m.to) return false;
  await tx.update(mailboxes).set({ warmupStatus: m.to, updatedAt: now }).where(eq(mailboxes.id, m.mailboxId));
  await emitEvent(
    tx,
    m.workspaceId,
    "warmup.status_changed",
    { mailboxId: m.mailboxId, mailboxEmail: m.email, from: m.from, to: m.to, reason: m.reason, changedAt: now.toISOString() },
    now,
  );
  return true;
}
