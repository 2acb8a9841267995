import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { emails } from "../../db/schema";

/**
 * The real history that keeps a mailbox from being deleted: emails it sent (or tried to).
 * Replies it received join this count when the inbox lands; test sends are not history.
 */
export async function mailboxHistory(db: DbOrTx, mailboxId: string): Promise<{ sends: number; replies: number }> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(emails).where(eq(emails.mailboxId, mailboxId));
  return { sends: r.n, replies: 0 };
}
