import type { DbOrTx } from "../../db/client";
import type { webhookDeliveries, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { type Logger, stderrLogger } from "../log";
import { claimDue } from "./claim-deliveries";
import { afterAttempt, type Attempted, recordAttempts } from "./record";
import { type AttemptResult, type Sendable, send, signingSecrets, type Target } from "./send";
import { DeliveryWindow } from "./delivery-window";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** One delivery, now, recorded (the test button and resend use this). */
export async function attemptDelivery(db: DbOrTx, clock: Clock, d: Sendable & Attempted, w: Target): Promise<AttemptResult> {
  const now = clock.now();
  const r = await send(d, w, signingSecrets(w, now), now);
  await recordAttempts(db, [afterAttempt(d, w, r, now)]);
  return { delivered: r.delivered, statusCode: r.statusCode, error: r.error };
}

export interface DeliverOptions {
  /** Deliveries per claim (default 100). */
  limit?: number;
  /** Claims per call (default 1). */
  batches?: number;
  log?: Logger;
}

/**
 * Claims due deliveries into the window, `limit` at a time, up to `batches` claims or until a claim
 * comes back short. The next batch is claimed once the window is down to its low water, so it stays
 * full without claimed rows waiting long on their lease.
 */
export async function claimInto(w: DeliveryWindow, db: DbOrTx, clock: Clock, limit: number, batches: number): Promise<void> {
  for (let i = 0; i < batches; i++) {
    await w.room();
    const rows = await claimDue(db, clock.now(), limit);
    w.add(rows);
    if (rows.length < limit) return;
  }
}

/**
 * Delivers due deliveries: claimed with a lease (SKIP LOCKED) — a worker that dies mid-delivery loses
 * nothing: the lease runs out and another worker sends it again, with the same event id for the
 * receiver to ignore if it had already got it. At most 10 requests are in flight; results are written
 * in group commits while others are in flight (DeliveryWindow) — up to `batches` claims of `limit`.
 */
export async function deliverDue(db: DbOrTx, clock: Clock, opts: DeliverOptions = {}): Promise<{ attempted: number; delivered: number }> {
  const w = new DeliveryWindow(db, clock, opts.log ?? stderrLogger);
  await claimInto(w, db, clock, opts.limit ?? 100, opts.batches ?? 1);
  return w.finish();
}
