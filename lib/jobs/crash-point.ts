import { jobsEnv } from "../env";
/**
 * Fault injection for the reliability suite: with OUTREACH_CRASH_AT naming a
 * point, the process kills itself (SIGKILL: no clean-up of any kind, as a power cut or the OOM killer)
 * the first time it reaches that point, `afterMs` later when given (so a statement already sent can
 * be cut off mid-flight). Unset — always, outside that suite — it costs one comparison.
 */
export type CrashPoint =
  | "send:after-claim"
  | "send:after-sending-commit"
  | "send:after-accept"
  | "send:during-record"
  /** A branch decision computed, its transaction not begun. */
  | "branch:after-decide"
  /** Inside the branch transaction: the lead_branches row and the lead's move written, not committed. */
  | "branch:during-effect"
  /** The branch transaction committed, before the next lead. */
  | "branch:after-effect";

const armed = jobsEnv.crashAt;

export function crashPoint(name: CrashPoint, afterMs?: number): void {
  if (armed !== name) return;
  const die = () => process.kill(process.pid, "SIGKILL");
  if (afterMs === undefined) die();
  else setTimeout(die, afterMs);
}
