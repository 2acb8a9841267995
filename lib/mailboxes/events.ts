import type { DbOrTx } from "../../db/client";
import { emitEvent } from "../events/emit";

/** `mailbox.reconnected`: a mailbox whose login was failing works again (a passing check or new credentials). */
export async function emitReconnected(db: DbOrTx, workspaceId: string, m: { id: string; email: string }, now: Date): Promise<void> {
  await emitEvent(
    db,
    workspaceId,
    "mailbox.reconnected",
    { mailboxId: m.id, mailboxEmail: m.email, reconnectedAt: now.toISOString() },
    now,
  );
}

/** `mailbox.disconnected`: the first refused login of an outage (the health check, or a send refused for its login). */
export async function emitDisconnected(
  db: DbOrTx,
  workspaceId: string,
  m: { id: string; email: string },
  error: string,
  now: Date,
): Promise<void> {
  const data = { mailboxId: m.id, mailboxEmail: m.email, error, disconnectedAt: now.toISOString() };
  await emitEvent(db, workspaceId, "mailbox.disconnected", data, now);
}
