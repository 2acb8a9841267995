import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentReplies } from "../../db/schema";

export type AgentReplyRow = typeof agentReplies.$inferSelect;

/** How long one run may work on a claimed answer (search, model, SMTP) before it counts as interrupted. */
export const LEASE_MS = 2 * 60_000;
const PER_RUN = 20;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Work whose run stopped mid-way (its lease ran out while WORKING) is FAILED, never retried: it may have
 * been sent already, and a lead never gets the same answer twice.
 */
export async function failInterrupted(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db
    .update(agentReplies)
    .set({
      status: "FAILED",
      reason: "INTERRUPTED",
      detail: "The run working on it stopped; not retried so it is never sent twice",
      leaseUntil: null,
      doneAt: now,
    })
    .where(and(eq(agentReplies.status, "WORKING"), sql`${agentReplies.leaseUntil} < ${ts(now)}`))
    .returning({ replyId: agentReplies.replyId });
  return rows.length;
}

/** Claims due PENDING work, oldest first, as WORKING with a lease (SKIP LOCKED: two runs never take the same). */
export async function claimDue(db: DbOrTx, now: Date): Promise<AgentReplyRow[]> {
  return db
    .update(agentReplies)
    .set({ status: "WORKING", leaseUntil: new Date(now.getTime() + LEASE_MS) })
    .where(
      sql`(${agentReplies.replyId}, ${agentReplies.kind}) in (
        select reply_id, kind from agent_replies where status = 'PENDING' and due_at <= ${ts(now)}
        order by due_at limit ${PER_RUN} for update skip locked)`,
    )
    .returning();
}

export interface Outcome {
  status: "SENT" | "SKIPPED" | "FAILED";
  reason?: string;
  detail?: string;
  body?: string;
  provider?: string;
  sentReplyId?: string;
}

/** Records a claimed row's outcome, only while its lease is still this run's. */
export async function finish(db: DbOrTx, row: AgentReplyRow, o: Outcome, now: Date): Promise<boolean> {
  const done = await db
    .update(agentReplies)
    .set({
      status: o.status,
      reason: o.reason ?? null,
      detail: o.detail ?? null,
      body: o.body ?? null,
      provider: o.provider ?? null,
      sentReplyId: o.sentReplyId ?? null,
      leaseUntil: null,
      doneAt: now,
    })
    .where(and(eq(agentReplies.replyId, row.replyId), eq(agentReplies.kind, row.kind), eq(agentReplies.leaseUntil, row.leaseUntil!)))
    .returning({ replyId: agentReplies.replyId });
  return done.length > 0;
}
