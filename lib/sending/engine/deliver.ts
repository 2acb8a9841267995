import type { DbOrTx } from "../../../db/client";
import type { Clock } from "../../clock";
import { mapLimit } from "../../concurrency";
import { crashPoint } from "../../jobs/crash-point";
import { stderrLogger } from "../../log";
import { classifySmtpError } from "../../mail/smtp";
import type { LoginEnv } from "../../mailboxes/credentials";
import { classifySendError, type SendOutcome } from "../bounce";
import { dropTransport, sendPooledAs } from "../transports";
import { Recorder, recordRefusal } from "./record";
import { composeMessage } from "./render";
import type { Outcome, SendOptions, SendReport, SentBody, Work } from "./types";

/** SMTP conversations in flight at once by default, one per mailbox. */
export const DEFAULT_CONCURRENCY = 32;

/** A refusal as the engine records it: a bounce (hard or soft, RFC 3463) or a failure to retry. */
function outcomeOf(o: SendOutcome): Exclude<Outcome, { status: "SENT" }> {
  return o.kind === "bounce"
    ? { status: "BOUNCED", bounceType: o.bounceType, code: o.code, reason: o.reason }
    : { status: "FAILED", code: o.code, reason: o.reason, auth: o.auth };
}

/**
 * One SMTP conversation through the mailbox's pooled connection, and what came of it. A refused
 * recipient is classified from the server's answer; a thrown error from its code and text, and a
 * connection that failed for any reason other than a refusal is dropped from the pool.
 */
export async function smtpSend(w: Work, env: LoginEnv): Promise<{ outcome: Outcome; body: SentBody }> {
  const { mail, body } = composeMessage(w);
  try {
    const info = await sendPooledAs(env, w.mailbox, mail);
    if (!info.rejected.length) return { outcome: { status: "SENT" }, body };
    return { outcome: outcomeOf(classifySendError(undefined, String(info.response))), body };
  } catch (e) {
    const err = classifySmtpError(e);
    if (err.kind !== "rejected") dropTransport(w.mailbox.id);
    return { outcome: outcomeOf(classifySendError(err.responseCode, err.message, err.kind)), body };
  }
}

/**
 * The sender: the SMTP conversations of the scheduled emails, `concurrency` at a time (one per mailbox:
 * each mailbox has at most one email per pass), outside any transaction; outcomes recorded as they
 * come (record.ts). A crash from the commit of SENDING on leaves the rows SENDING: never resent.
 */
export async function deliver(db: DbOrTx, clock: Clock, work: Work[], opts: SendOptions = {}): Promise<SendReport> {
  const report: SendReport = { mailboxes: work.length, sent: 0, bounced: 0, failed: 0 };
  if (work.length === 0) return report;
  const log = opts.log ?? stderrLogger;
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  const recorder = new Recorder(db, log, Math.min(concurrency, work.length));
  await mapLimit(work, concurrency, async (w) => {
    try {
      const { outcome, body } = await smtpSend(w, { db, clock });
      if (outcome.status === "SENT") crashPoint("send:after-accept");
      const done = clock.now();
      // Pacing: the least gap between two emails of this mailbox, plus up to half of it again as jitter.
      const next = new Date(done.getTime() + w.campaign.minGapMinutes * 60_000 * (1 + Math.random() * 0.5));
      if (outcome.status === "SENT") recorder.sent(w, done, body, next);
      else {
        await recordRefusal(db, clock, w, outcome, done, body);
        recorder.release(w.mailbox.id, next);
      }
      report[outcome.status === "SENT" ? "sent" : outcome.status === "BOUNCED" ? "bounced" : "failed"]++;
    } catch (error) {
      // Left SENDING and leased: the lease lapses, the row is never resent.
      log.error("send: failed", { mailboxId: w.mailbox.id, emailId: w.emailId, error });
    }
  });
  await recorder.flush();
  return report;
}
