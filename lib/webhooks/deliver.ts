import type { DbOrTx } from "../../db/client";
import type { webhookDeliveries, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { pLimit } from "../concurrency";
import { GroupCommit } from "../jobs/group-commit";
import { type Logger, stderrLogger } from "../log";
import { type Claimed, claimDue } from "./claim";
import { afterAttempt, type Attempted, type Outcome, recordAttempts } from "./record";
import { type AttemptResult, type Sendable, send, signingSecrets, type Target } from "./send";

export { envelope, dispatchEvents } from "./dispatch";
export { backoffMs, cleanupDeliveries } from "./record";
export { signingSecrets, type AttemptResult } from "./send";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** One delivery, now, recorded (the test button and resend use this). */
export async function attemptDelivery(db: DbOrTx, clock: Clock, d: Sendable & Attempted, w: Target): Promise<AttemptResult> {
  const now = clock.now();
  const r = await send(d, w, signingSecrets(w, now), now);
  await recordAttempts(db, [afterAttempt(d, w, r, now)]);
  return { delivered: r.delivered, statusCode: r.statusCode, error: r.error };
}

/** Requests in flight at once, across all receivers: one slow receiver holds one lane, not the others. */
const IN_FLIGHT = 10;
/** Outcomes recorded per statement at most, while requests are still in flight. */
const RECORD_BATCH = 50;
const RECORD_WAIT_MS = 20;

export interface DeliverOptions {
  /** Deliveries per claim (default 100). */
  limit?: number;
  /** Claims per call (default 1). */
  batches?: number;
  /** More may arrive (dispatch still running): a short claim does not end the call. */
  more?: () => boolean;
  log?: Logger;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Delivers due deliveries: claimed with a lease (SKIP LOCKED) — a worker that dies mid-delivery loses
 * nothing: the lease runs out and another worker sends it again, with the same event id for the
 * receiver to ignore if it had already got it. At most 10 requests are in flight (p-limit); the window
 * is kept full — the next batch is claimed while the last requests of this one are still out, and
 * results are written in group commits while others are in flight — up to `batches` claims of `limit`.
 */
export async function deliverDue(db: DbOrTx, clock: Clock, opts: DeliverOptions = {}): Promise<{ attempted: number; delivered: number }> {
  const limit = opts.limit ?? 100;
  const more = opts.more ?? (() => false);
  const log = opts.log ?? stderrLogger;
  const report = { attempted: 0, delivered: 0 };
  const secrets = new Map<string, string[]>(); // decrypted once per webhook per call
  const outcomes = new GroupCommit<Outcome[]>(
    (groups) => recordAttempts(db, groups.flat()),
    // The rows keep their lease: they are sent again once it runs out (same event id).
    (error, groups) => log.error("webhook outcomes not recorded", { error, deliveries: groups.flat().map((r) => r.id) }),
  );
  // Outcomes go to the group commit RECORD_BATCH at a time, or RECORD_WAIT_MS after the first one
  // waiting, or when the window empties: one UPDATE per answer would cost Postgres a statement per
  // delivery while answers arrive faster than it writes them; the wait bounds what a crash forgets
  // (those deliveries are sent again when their lease runs out).
  let buffered: Outcome[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hand = () => {
    clearTimeout(timer);
    timer = undefined;
    if (buffered.length) outcomes.add(buffered);
    buffered = [];
  };
  const window = pLimit(IN_FLIGHT);
  const attempt = async (c: Claimed) => {
    const now = clock.now();
    let s = secrets.get(c.webhookId);
    if (!s) secrets.set(c.webhookId, (s = signingSecrets(c.target, now)));
    const outcome = afterAttempt(c, c.target, await send(c, c.target, s, now), now);
    report.attempted++;
    if (outcome.status === "DELIVERED") report.delivered++;
    buffered.push(outcome);
    if (buffered.length >= RECORD_BATCH || window.activeCount + window.pendingCount <= 1) hand();
    else timer ??= setTimeout(hand, RECORD_WAIT_MS);
  };
  const tasks: Promise<void>[] = [];
  for (let claims = 0; claims < (opts.batches ?? 1); ) {
    // Claim the next batch once this one is down to two windows not yet started.
    await tasks[tasks.length - 3 * IN_FLIGHT];
    // Asked before the claim: when the dispatch had finished by then, the claim saw all it committed;
    // asked after, a commit landing during the claim would end the turn without its deliveries.
    const moreComing = more();
    const rows = await claimDue(db, clock.now(), limit);
    if (rows.length === 0 && moreComing) {
      await pause(10); // nothing committed yet, but more is coming: not a batch; look again shortly
      continue;
    }
    claims++;
    for (const row of rows) tasks.push(window(() => attempt(row)));
    if (rows.length < limit && !moreComing) break;
  }
  await Promise.all(tasks);
  hand();
  await outcomes.flush();
  return report;
}
