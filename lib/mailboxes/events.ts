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
