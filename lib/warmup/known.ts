import { sql } from "drizzle-orm";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { warmupMessages } from "../../db/schema";
import { placementProbeIds } from "../placement/probes";

/**
 * Warmup mail carries no marker a provider could filter on: both ends live in this database, so the
 * receiving side knows it by the Message-ID recorded when it was sent.
 */
export async function warmupMessageIds(db: DbOrTx, messageIds: readonly string[]): Promise<Set<string>> {
  if (!messageIds.length) return new Set();
  const rows = await db
    .select({ id: warmupMessages.messageId })
    .from(warmupMessages)
    .where(sql`${warmupMessages.messageId} = ${anyOf([...new Set(messageIds)])}`);
  return new Set(rows.map((r) => r.id));
}

/**
 * The service's own mail among `messageIds` — warmup emails and answers, placement probes — which the
 * inbox never shows (not as replies, not as unmatched mail, not in stats). Two indexed reads at once.
 */
export async function serviceMailIds(db: DbOrTx, messageIds: readonly string[]): Promise<Set<string>> {
  if (!messageIds.length) return new Set();
  const [warmup, probes] = await Promise.all([warmupMessageIds(db, messageIds), placementProbeIds(db, messageIds)]);
  return new Set([...warmup, ...probes]);
}
