import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { campaignMailboxes, mailboxes } from "../../db/schema";

export type PoolMailbox = typeof mailboxes.$inferSelect;

/**
 * A mailbox can send campaign email when it is on, its login works, it is not auto-paused and it is not
 * a seed (seeds receive placement probes and warmup, never campaign email).
 */
export function canSend(m: Pick<PoolMailbox, "sendingEnabled" | "loginFailingSince" | "autoPausedAt" | "isSeed">): boolean {
  return m.sendingEnabled && !m.loginFailingSince && !m.autoPausedAt && !m.isSeed;
}

/** Early warmup: what WARMING_MAILBOXES warns about. */
export function isWarming(m: Pick<PoolMailbox, "warmupStatus" | "assumedWarm">): boolean {
  return m.warmupStatus === "EARLY" && !m.assumedWarm;
}

export async function poolMailboxes(db: DbOrTx, campaignId: string): Promise<PoolMailbox[]> {
  const rows = await db
    .select({ m: mailboxes })
    .from(campaignMailboxes)
    .innerJoin(mailboxes, eq(mailboxes.id, campaignMailboxes.mailboxId))
    .where(eq(campaignMailboxes.campaignId, campaignId))
    .orderBy(mailboxes.seq);
  return rows.map((r) => r.m);
}

export async function mailboxesByIds(db: DbOrTx, workspaceId: string, ids: string[]): Promise<PoolMailbox[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mailboxes)
    .where(and(eq(mailboxes.workspaceId, workspaceId), inArray(mailboxes.id, ids)));
}
