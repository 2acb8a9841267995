import { systemCtx } from "../ctx";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, emailEvents, emails } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { newId } from "../ids";
import { addSuppressions } from "../suppressions/suppressions";

type SentEmail = typeof emails.$inferSelect;

/**
 * A lead's way out, through whatever door (the unsubscribe link, a complaint report): the address is
 * suppressed with `reason`, every sequence to it stops (UNSUBSCRIBED), and — the first time only — the
 * email records an UNSUBSCRIBE event and lead.unsubscribed fires with `source`. Inside the caller's
 * transaction; idempotent.
 */
export async function unsubscribeLeadOf(
  tx: DbOrTx,
  clock: Clock,
  e: SentEmail,
  reason: "unsubscribe_link" | "complaint",
  source: "link" | "complaint",
): Promise<void> {
  const now = clock.now();
  const added = await addSuppressions(systemCtx(e.workspaceId, { db: tx, clock }), { emails: [e.leadEmail] }, reason);
  if (e.leadId)
    await tx
      .update(campaignLeads)
      .set({ status: "UNSUBSCRIBED", nextSendAt: null })
      .where(and(eq(campaignLeads.leadId, e.leadId), eq(campaignLeads.status, "ACTIVE")));
  if (added.added === 0) return;
  await tx
    .insert(emailEvents)
    .values({ id: newId("eev"), workspaceId: e.workspaceId, emailId: e.id, kind: "UNSUBSCRIBE", createdAt: now, settledAt: now });
  await emitEvent(tx, e.workspaceId, "lead.unsubscribed", { replyId: null, leadId: e.leadId, leadEmail: e.leadEmail, source }, now);
}

/**
 * The unsubscribe link and RFC 8058 one-click: the address is suppressed, every sequence to it stops,
 * and lead.unsubscribed fires (source `link`; replies asking to be removed use `reply`). Idempotent.
 */
export async function unsubscribeByEmail(db: DbOrTx, clock: Clock, emailId: string): Promise<{ address: string } | undefined> {
  return db.transaction(async (tx) => {
    const [e] = await tx.select().from(emails).where(eq(emails.id, emailId));
    if (!e) return undefined;
    await unsubscribeLeadOf(tx, clock, e, "unsubscribe_link", "link");
    return { address: e.leadEmail };
  });
}
