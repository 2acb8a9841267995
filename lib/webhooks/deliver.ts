import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { events, webhookDeliveries, webhooks } from "../../db/schema";
import type { Clock } from "../clock";
import { decryptSecret } from "../crypto/secretbox";
import { newId } from "../ids";
import type { JobDef } from "../jobs/registry";
import { OutboundError, safeRequest } from "../net/http";
import { signatureHeader } from "./signing";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The 6.1 envelope, serialised once: every retry and resend sends these exact bytes. */
export function envelope(e: { id: string; event: string; createdAt: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, event: e.event, createdAt: e.createdAt.toISOString(), data: e.data });
}

/** 30 s, 1 min, 2 min, 4 min … after the n-th failed attempt (spec 6.5 rule 2). */
export function backoffMs(failedAttempts: number): number {
  return 30_000 * 2 ** Math.max(0, failedAttempts - 1);
}

export function signingSecrets(w: WebhookRow, now: Date): string[] {
  const secrets = [decryptSecret(w.secretEnc)];
  if (w.previousSecretEnc && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now) secrets.push(decryptSecret(w.previousSecretEnc));
  return secrets;
}

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * One POST of a delivery: signed over the exact body, any 2xx within the timeout is success, a
 * redirect is a failure and is not followed. Records the attempt; schedules the next one with backoff
 * or marks the delivery FAILED once the attempt limit is reached (spec 3.5).
 */
export async function attemptDelivery(db: DbOrTx, clock: Clock, d: DeliveryRow, w: WebhookRow): Promise<AttemptResult> {
  const now = clock.now();
  const timestamp = Math.floor(now.getTime() / 1000);
  let result: AttemptResult;
  let response: string | null = null;
  try {
    const res = await safeRequest(w.url, {
      method: "POST",
      timeoutMs: w.timeoutMs,
      body: d.body,
      maxBody: 1024,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Outreach-Webhooks/1",
        "X-Service-Event": d.event,
        "X-Service-Event-Id": d.eventId,
        "X-Service-Timestamp": String(timestamp),
        "X-Service-Signature": signatureHeader(signingSecrets(w, now), timestamp, d.body),
      },
    });
    response = res.body;
    if (res.status >= 200 && res.status < 300) result = { delivered: true, statusCode: res.status, error: null };
    else if (res.status >= 300 && res.status < 400) result = { delivered: false, statusCode: res.status, error: `Redirect (${res.status}) to ${res.headers.location ?? "?"} not followed` };
    else result = { delivered: false, statusCode: res.status, error: `Receiver answered ${res.status}` };
  } catch (e) {
    const msg = e instanceof OutboundError ? (e.kind === "timeout" ? `Timed out after ${w.timeoutMs} ms` : e.message) : (e as Error).message;
    result = { delivered: false, statusCode: null, error: msg };
  }
  const attempts = d.attempts + 1;
  const finished = result.delivered || d.isTest || attempts >= w.retryAttempts;
  await db
    .update(webhookDeliveries)
    .set({
      attempts,
      status: result.delivered ? "DELIVERED" : finished ? "FAILED" : "PENDING",
      nextAttemptAt: finished ? null : new Date(now.getTime() + backoffMs(attempts)),
      leasedUntil: null,
      lastStatusCode: result.statusCode,
      lastResponse: response,
      lastError: result.error,
      lastAttemptAt: now,
    })
    .where(eq(webhookDeliveries.id, d.id));
  return result;
}

/** Outbox → deliveries: each new event goes to the active webhooks of its workspace that subscribe to it. */
export async function dispatchEvents(db: DbOrTx, clock: Clock, limit = 500): Promise<{ events: number; deliveries: number }> {
  return db.transaction(async (tx) => {
    const batch = await tx.select().from(events).where(isNull(events.dispatchedAt)).orderBy(events.createdAt).limit(limit).for("update", { skipLocked: true });
    if (batch.length === 0) return { events: 0, deliveries: 0 };
    const hooks = await tx
      .select()
      .from(webhooks)
      .where(and(inArray(webhooks.workspaceId, [...new Set(batch.map((e) => e.workspaceId))]), eq(webhooks.active, true)));
    const now = clock.now();
    const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const e of batch) {
      for (const w of hooks) {
        if (w.workspaceId !== e.workspaceId || !w.events.includes(e.event)) continue;
        rows.push({ id: newId("dlv"), workspaceId: e.workspaceId, webhookId: w.id, eventId: e.id, event: e.event, body: envelope(e), nextAttemptAt: now, createdAt: now });
      }
    }
    if (rows.length) await tx.insert(webhookDeliveries).values(rows);
    await tx.update(events).set({ dispatchedAt: now }).where(inArray(events.id, batch.map((e) => e.id)));
    return { events: batch.length, deliveries: rows.length };
  });
}

/**
 * Claims due deliveries with a lease (SKIP LOCKED): a worker that dies mid-delivery loses nothing —
 * the lease runs out and another worker sends it again, with the same event id for the receiver to
 * ignore if it had already got it.
 */
export async function deliverDue(db: DbOrTx, clock: Clock, limit = 50): Promise<{ attempted: number; delivered: number }> {
  const now = clock.now();
  const claimed = (await db.execute(sql`
    update webhook_deliveries d set leased_until = ${new Date(now.getTime() + 60_000).toISOString()}::timestamptz
    from webhooks w
    where d.webhook_id = w.id and d.id in (
      select d2.id from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
      where d2.status = 'PENDING' and w2.active and d2.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (d2.leased_until is null or d2.leased_until < ${now.toISOString()}::timestamptz)
      order by d2.next_attempt_at limit ${limit}
      for update of d2 skip locked)
    returning d.id`)) as unknown as { id: string }[];
  if (claimed.length === 0) return { attempted: 0, delivered: 0 };
  const rows = await db.select({ d: webhookDeliveries, w: webhooks }).from(webhookDeliveries).innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId)).where(inArray(webhookDeliveries.id, claimed.map((c) => c.id)));
  let delivered = 0;
  // A few at a time, so one slow receiver does not hold up the others.
  for (let i = 0; i < rows.length; i += 10) {
    const results = await Promise.all(rows.slice(i, i + 10).map((r) => attemptDelivery(db, clock, r.d, r.w)));
    delivered += results.filter((r) => r.delivered).length;
  }
  return { attempted: rows.length, delivered };
}

export const webhookDispatchJob: JobDef = {
  name: "webhook-deliveries",
  cron: "* * * * *",
  everyMs: 1_000,
  async run({ db, clock }) {
    const dispatched = await dispatchEvents(db, clock);
    const sent = await deliverDue(db, clock);
    return { ...dispatched, ...sent };
  },
};

/** The delivery log is kept for 30 days (spec 6.5 rule 3). */
export async function cleanupDeliveries(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 30 * 24 * 3600_000).toISOString();
  const rows = await db.execute(sql`delete from webhook_deliveries where created_at < ${cutoff}::timestamptz and status <> 'PENDING' returning id`);
  return (rows as unknown as unknown[]).length;
}
