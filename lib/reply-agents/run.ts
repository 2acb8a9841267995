import { addReferralsAutonomously } from "./referrals";
import type { JobCtx } from "../ctx";
import { answer, followUp } from "./answer";
import { claimDue, failInterrupted, finish, type Outcome } from "./claim-replies";

/**
 * The reply agents' job (every few seconds on the local runner): due answers and follow-ups are
 * claimed with a lease, each made and sent once; an error in one is recorded as FAILED and the run
 * goes on with the next.
 */
export async function runAgentReplies({ db, clock, log }: JobCtx): Promise<Record<string, number>> {
  const counts: Record<string, number> = { sent: 0, skipped: 0, failed: 0 };
  counts.interrupted = await failInterrupted(db, clock.now());
  for (const row of await claimDue(db, clock.now())) {
    let out: Outcome;
    try {
      out = row.kind === "ANSWER" ? await answer(db, clock, row) : await followUp(db, clock, row);
    } catch (e) {
      log.error("reply agent failed", { replyId: row.replyId, kind: row.kind, error: String(e) });
      out = { status: "FAILED", reason: "ERROR", detail: (e as Error).message };
    }
    await finish(db, row, out, clock.now());
    counts[out.status === "SENT" ? "sent" : out.status === "SKIPPED" ? "skipped" : "failed"]++;
  }
  counts.referrals = await addReferralsAutonomously(db, clock, log);
  return counts;
}
