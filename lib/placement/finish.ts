import { and, desc, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxes, placementResults, placementTests } from "../../db/schema";
import { raiseAlert, resolveAlert } from "../alerts/alerts";
import { emitEvent } from "../events/emit";
import { inboxPct, isDrop, tally } from "./rules";
import { rematchForPlacement } from "../campaigns/assign-mailbox";

export type TestRow = typeof placementTests.$inferSelect;
export type FinalStatus = "COMPLETED" | "FAILED" | "NO_SEED_POOL";

/** The `placement.completed` data of a finished test (exactly these fields). */
export function completedData(t: TestRow, mailboxEmail: string) {
  return {
    testId: t.id,
    batchId: t.batchId,
    mailboxId: t.mailboxId,
    mailboxEmail,
    status: t.status,
    seedCount: t.seedCount,
    inboxCount: t.inboxCount,
    spamCount: t.spamCount,
    missingCount: t.missingCount,
    gmailTabs: t.gmailTabs,
    createdAt: t.createdAt.toISOString(),
    completedAt: t.completedAt?.toISOString() ?? null,
  };
}

async function mailboxEmail(db: DbOrTx, id: string): Promise<string> {
  const [m] = await db.select({ email: mailboxes.email }).from(mailboxes).where(eq(mailboxes.id, id));
  return m?.email ?? "";
}

/** Records `placement.completed` for a finished test, in the caller's transaction (the outbox rule). */
export async function emitCompleted(tx: DbOrTx, t: TestRow, now: Date): Promise<void> {
  await emitEvent(tx, t.workspaceId, "placement.completed", completedData(t, await mailboxEmail(tx, t.mailboxId)), now);
}

/**
 * PLACEMENT_DROP (rules.isDrop): compares a completed test with the mailbox's previous completed one;
 * a drop raises (or refreshes) the mailbox's alert, a clean test resolves it.
 */
async function judgeDrop(tx: DbOrTx, t: TestRow, now: Date): Promise<void> {
  const [prev] = await tx
    .select()
    .from(placementTests)
    .where(and(eq(placementTests.mailboxId, t.mailboxId), eq(placementTests.status, "COMPLETED"), lt(placementTests.seq, t.seq)))
    .orderBy(desc(placementTests.seq))
    .limit(1);
  const pct = inboxPct(t);
  const prevPct = prev ? inboxPct(prev) : null;
  if (!isDrop(pct, prevPct)) return resolveAlert(tx, t.workspaceId, "PLACEMENT_DROP", t.mailboxId, now);
  const email = await mailboxEmail(tx, t.mailboxId);
  const before = prevPct === null ? "" : `; the previous test had ${prevPct}%`;
  await raiseAlert(
    tx,
    {
      workspaceId: t.workspaceId,
      kind: "PLACEMENT_DROP",
      subject: t.mailboxId,
      mailboxId: t.mailboxId,
      message: `${email}: ${pct}% of placement seeds got the probe in the inbox (${t.inboxCount} of ${t.seedCount}${before})`,
      details: { testId: t.id, inboxPct: pct, previousInboxPct: prevPct, spamCount: t.spamCount, missingCount: t.missingCount },
    },
    now,
  );
}

/**
 * Finishes a RUNNING test once: its counts from the results, the status, `placement.completed` and,
 * for a COMPLETED test, the PLACEMENT_DROP judgement and the move of PREFER leads it now lands in spam
 * for (lib/campaigns/placement-spam.ts) — one transaction. The status guard makes a second
 * caller (a worker whose lease ran out, the POST racing the job) a no-op. Returns whether it finished it.
 */
export async function finishTest(db: DbOrTx, testId: string, status: FinalStatus, now: Date, error?: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const results = await tx
      .select({ placement: placementResults.placement, tab: placementResults.tab })
      .from(placementResults)
      .where(eq(placementResults.testId, testId));
    const [t] = await tx
      .update(placementTests)
      .set({ ...tally(results), status, error: error ?? null, completedAt: now, leaseUntil: null })
      .where(and(eq(placementTests.id, testId), eq(placementTests.status, "RUNNING")))
      .returning();
    if (!t) return false;
    await emitCompleted(tx, t, now);
    if (status === "COMPLETED") {
      await judgeDrop(tx, t, now);
      // Placement feeds sending: PREFER campaigns' unsent leads of the classes it now lands in spam for move off it.
      await rematchForPlacement(tx, t.mailboxId);
    }
    return true;
  });
}
