import type { DbOrTx } from "../../../db/client";
import type { Clock } from "../../clock";
import { deliver } from "./deliver";
import { scheduleDue } from "./schedule";
import type { SendOptions, SendReport } from "./types";

/**
 * The send engine, in parts: claim.ts (leases, due work), reads.ts (what the rules need), decide.ts
 * (the rules, pure), render.ts (subject, body, MIME parts), commit.ts (the sends claimed as SENDING),
 * deliver.ts (SMTP and its outcome), record.ts (group commits of outcomes and events),
 * bounce-spike.ts (bounce protection). The job's schedule lives in inngest/functions/send-campaign-emails.ts.
 */
export { BOUNCE_RATE_THRESHOLD, checkBounceSpike } from "./bounce-spike";
export { mailboxesWithDueWork } from "./claim";
export { afterFailure, afterSend, decide, MAX_FAILED_ATTEMPTS } from "./decide";
export { deliver } from "./deliver";
export { scheduleDue } from "./schedule";
export type { SendOptions, SendReport, Work } from "./types";
export { pickVariant } from "./variants";

/**
 * One pass of the send engine: every mailbox that may send now sends at most one campaign email — the
 * first due lead whose window is open — then waits its gap (pacing). Two halves: `scheduleDue` decides,
 * set-based, and commits each email as SENDING; `deliver` talks SMTP and records the outcomes. Every
 * rule is checked at claim time against the database (architecture: "Sending, exactly once at most").
 */
export async function sendDue(db: DbOrTx, clock: Clock, opts: SendOptions = {}): Promise<SendReport> {
  const { claimed, work } = await scheduleDue(db, clock, opts);
  const report = await deliver(db, clock, work, opts);
  return { ...report, mailboxes: claimed };
}
