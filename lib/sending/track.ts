import { systemCtx } from "../ctx";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, emailEvents, emails, mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import { emitEvent } from "../events/emit";
import { newId } from "../ids";
import { addSuppressions } from "../suppressions/suppressions";

async function emailWithMailbox(db: DbOrTx, emailId: string) {
  const [row] = await db
    .select({ e: emails, mailboxEmail: mailboxes.email })
    .from(emails)
    .innerJoin(mailboxes, eq(mailboxes.id, emails.mailboxId))
    .where(eq(emails.id, emailId));
  return row;
}

/** An open: every one is logged; the first sets openedAt and fires email.opened (spec 6.2: first open only). */
export async function recordOpen(db: DbOrTx, clock: Clock, emailId: string): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const row = await emailWithMailbox(tx, emailId);
    if (!row) return;
    await tx.insert(emailEvents).values({ id: newId("eev"), workspaceId: row.e.workspaceId, emailId, kind: "OPEN", createdAt: now });
    const first = await tx
      .update(emails)
      .set({ openedAt: now })
      .where(and(eq(emails.id, emailId), isNull(emails.openedAt)))
      .returning({ id: emails.id });
    if (first.length) {
      await emitEvent(
        tx,
        row.e.workspaceId,
        "email.opened",
        {
          sendEventId: emailId,
          leadEmail: row.e.leadEmail,
          mailboxEmail: row.mailboxEmail,
          campaignId: row.e.campaignId,
          openedAt: now.toISOString(),
        },
        now,
      );
    }
  });
}

/** A click: logged; the first sets clickedAt and fires email.clicked with the URL. */
export async function recordClick(db: DbOrTx, clock: Clock, emailId: string, url: string): Promise<void> {
  const now = clock.now();
  await db.transaction(async (tx) => {
    const row = await emailWithMailbox(tx, emailId);
    if (!row) return;
    await tx.insert(emailEvents).values({ id: newId("eev"), workspaceId: row.e.workspaceId, emailId, kind: "CLICK", url, createdAt: now });
    const first = await tx
      .update(emails)
      .set({ clickedAt: now })
      .where(and(eq(emails.id, emailId), isNull(emails.clickedAt)))
      .returning({ id: emails.id });
    if (first.length) {
      await emitEvent(
        tx,
        row.e.workspaceId,
        "email.clicked",
        {
          sendEventId: emailId,
          leadEmail: row.e.leadEmail,
          mailboxEmail: row.mailboxEmail,
          campaignId: row.e.campaignId,
          openedAt: row.e.openedAt?.toISOString() ?? null,
          clickedAt: now.toISOString(),
          url,
        },
        now,
      );
    }
  });
}

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
      await tx.insert(emailEvents).values({ id: newId("eev"), workspaceId: e.workspaceId, emailId, kind: "UNSUBSCRIBE", createdAt: now });
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
