import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { domains } from "../../db/schema";
import { newId } from "../ids";

/** The sending domain of a mailbox address, created on first use. */
export async function ensureDomain(db: DbOrTx, workspaceId: string, domain: string): Promise<string> {
  const d = domain.toLowerCase();
  await db
    .insert(domains)
    .values({ id: newId("dom"), workspaceId, domain: d })
    .onConflictDoNothing();
  const [row] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.workspaceId, workspaceId), eq(domains.domain, d)));
  return row.id;
}
