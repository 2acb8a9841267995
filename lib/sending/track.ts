import { systemCtx } from "../ctx";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, emailEvents, emails } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { newId } from "../ids";
import { addSuppressions } from "../suppressions/suppressions";

/**
 * The unsubscribe link and RFC 8058 one-click: the address is suppressed, every sequence to it stops,
 * and lead.unsubscribed fires (source `link`; replies asking to be removed use `reply`). Idempotent.
 */
export async function unsubscribeByEmail(db: DbOrTx, clock: Clock, emailId: string): Promise<{ address: string } | undefined> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [e] = await tx.select().from(emails).where(eq(emails.id, emailId));
    if (!e) return undefined;
    const added = await addSuppressions(systemCtx(e.workspaceId, { db: tx, clock }), { emails: [e.leadEmail] }, "unsubscribe_link");
    if (e.leadId)
      await tx
        .update(campaignLeads)
        .set({ status: "UNSUBSCRIBED", nextSendAt: null })
        .where(and(eq(campaignLeads.leadId, e.leadId), eq(campaignLeads.status, "ACTIVE")));
    if (added.added > 0) {
      await tx
        .insert(emailEvents)
        .values({ id: newId("eev"), workspaceId: e.workspaceId, emailId, kind: "UNSUBSCRIBE", createdAt: now, settledAt: now });
      await emitEvent(
        tx,
        e.workspaceId,
        "lead.unsubscribed",
        { replyId: null, leadId: e.leadId, leadEmail: e.leadEmail, source: "link" },
        now,
      );
    }
    return { address: e.leadEmail };
  });
}
