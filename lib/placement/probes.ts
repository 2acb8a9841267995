import { sql } from "drizzle-orm";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { placementResults } from "../../db/schema";

/**
 * The Message-IDs among `messageIds` that are placement probes (recorded in placement_results when
 * sent). A seed's inbox sync drops them, so a probe never shows as a reply or unmatched mail in the
 * seed's workspace. One indexed read per batch (placement_results_message_id_uq); none for an empty batch.
 */
export async function placementProbeIds(db: DbOrTx, messageIds: readonly string[]): Promise<Set<string>> {
  if (!messageIds.length) return new Set();
  const rows = await db
    .select({ id: placementResults.messageId })
    .from(placementResults)
    .where(sql`${placementResults.messageId} = ${anyOf([...new Set(messageIds)])}`);
  return new Set(rows.map((r) => r.id));
}
