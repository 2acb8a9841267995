import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { events, type webhookDeliveries, webhooks } from "../../db/schema";
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

export function signingSecrets(w: Pick<WebhookRow, "secretEnc" | "previousSecretEnc" | "previousSecretExpiresAt">, now: Date): string[] {
  const secrets = [decryptSecret(w.secretEnc)];
  if (w.previousSecretEnc && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now) secrets.push(decryptSecret(w.previousSecretEnc));
  return secrets;
}

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
}

type Attemptable = Pick<DeliveryRow, "id" | "eventId" | "event" | "body" | "attempts" | "isTest">;
type Target = Pick<WebhookRow, "url" | "timeoutMs" | "retryAttempts" | "secretEnc" | "previousSecretEnc" | "previousSecretExpiresAt">;

/**
 * One POST of a delivery: signed over the exact body, any 2xx within the timeout is success, a
 * redirect is a failure and is not followed.
 */
async function post(d: Attemptable, w: Target, now: Date, secrets: string[]): Promise<AttemptResult & { response: string | null }> {
  const timestamp = Math.floor(now.getTime() / 1000);
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
        "X-Service-Signature": signatureHeader(secrets, timestamp, d.body),
      },
    });
    if (res.status >= 200 && res.status < 300) return { delivered: true, statusCode: res.status, error: null, response: res.body };
    if (res.status >= 300 && res.status < 400)
      return {
        delivered: false,
        statusCode: res.status,
        error: `Redirect (${res.status}) to ${res.headers.location ?? "?"} not followed`,
        response: res.body,
      };
    return { delivered: false, statusCode: res.status, error: `Receiver answered ${res.status}`, response: res.body };
  } catch (e) {
    const msg =
      e instanceof OutboundError ? (e.kind === "timeout" ? `Timed out after ${w.timeoutMs} ms` : e.message) : (e as Error).message;
    return { delivered: false, statusCode: null, error: msg, response: null };
  }
}

/** The row after an attempt: delivered, retried after backoff, or FAILED at the attempt limit (spec 3.5). */
function afterAttempt(d: Attemptable, w: Target, r: AttemptResult & { response: string | null }, now: Date) {
  const attempts = d.attempts + 1;
  const finished = r.delivered || d.isTest || attempts >= w.retryAttempts;
  return {
    id: d.id,
    attempts,
    status: r.delivered ? "DELIVERED" : finished ? "FAILED" : "PENDING",
    next_attempt_at: finished ? null : new Date(now.getTime() + backoffMs(attempts)).toISOString(),
    last_status_code: r.statusCode,
    last_response: r.response,
    last_error: r.error,
    last_attempt_at: now.toISOString(),
  };
}

/** Records many attempts in one statement. */
async function recordAttempts(db: DbOrTx, rows: ReturnType<typeof afterAttempt>[]) {
  if (rows.length === 0) return;
  await db.execute(sql`
    update webhook_deliveries d set
      attempts = v.attempts, status = v.status::webhook_delivery_status, next_attempt_at = v.next_attempt_at, leased_until = null,
      last_status_code = v.last_status_code, last_response = v.last_response, last_error = v.last_error, last_attempt_at = v.last_attempt_at
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, attempts int, status text, next_attempt_at timestamptz,
      last_status_code int, last_response text, last_error text, last_attempt_at timestamptz)
    where d.id = v.id`);
}

/** One delivery, now, recorded (the test button and resend use this). */
export async function attemptDelivery(db: DbOrTx, clock: Clock, d: Attemptable, w: WebhookRow): Promise<AttemptResult> {
  const now = clock.now();
  const r = await post(d, w, now, signingSecrets(w, now));
  await recordAttempts(db, [afterAttempt(d, w, r, now)]);
  return { delivered: r.delivered, statusCode: r.statusCode, error: r.error };
}

/** Outbox → deliveries: each new event goes to the active webhooks of its workspace that subscribe to it. */
export async function dispatchEvents(db: DbOrTx, clock: Clock, limit = 500): Promise<{ events: number; deliveries: number }> {
  return db.transaction(async (tx) => {
    const batch = await tx
      .select()
      .from(events)
      .where(isNull(events.dispatchedAt))
      .orderBy(events.createdAt)
      .limit(limit)
      .for("update", { skipLocked: true });
    if (batch.length === 0) return { events: 0, deliveries: 0 };
    const hooks = await tx
      .select()
      .from(webhooks)
      .where(and(inArray(webhooks.workspaceId, [...new Set(batch.map((e) => e.workspaceId))]), eq(webhooks.active, true)));
    const now = clock.now();
    const rows: { id: string; workspace_id: string; webhook_id: string; event_id: string; event: string; body: string }[] = [];
    for (const e of batch) {
      for (const w of hooks) {
        if (w.workspaceId !== e.workspaceId || !w.events.includes(e.event)) continue;
        rows.push({ id: newId("dlv"), workspace_id: e.workspaceId, webhook_id: w.id, event_id: e.id, event: e.event, body: envelope(e) });
      }
    }
    // One statement for the whole batch: the rows travel as a single JSON parameter.
    if (rows.length) {
      await tx.execute(sql`
        insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, body, next_attempt_at, created_at)
        select v.id, v.workspace_id, v.webhook_id, v.event_id, v.event, v.body, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, workspace_id text, webhook_id text, event_id text, event text, body text)`);
    }
    await tx
      .update(events)
      .set({ dispatchedAt: now })
      .where(
        inArray(
          events.id,
          batch.map((e) => e.id),
        ),
      );
    return { events: batch.length, deliveries: rows.length };
  });
}

type Claimed = { d: Attemptable; w: Target; webhookId: string };

/** Claims up to `limit` due deliveries with a lease (SKIP LOCKED), with what sending them needs. */
async function claimDue(db: DbOrTx, now: Date, limit: number): Promise<Claimed[]> {
  const rows = (await db.execute(sql`
    update webhook_deliveries d set leased_until = ${new Date(now.getTime() + 60_000).toISOString()}::timestamptz
    from webhooks w
    where d.webhook_id = w.id and d.id in (
      select d2.id from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
      where d2.status = 'PENDING' and w2.active and d2.next_attempt_at <= ${now.toISOString()}::timestamptz
        and (d2.leased_until is null or d2.leased_until < ${now.toISOString()}::timestamptz)
      order by d2.next_attempt_at limit ${limit}
      for update of d2 skip locked)
    returning d.id, d.event_id, d.event, d.body, d.attempts, d.is_test, d.webhook_id, w.url, w.timeout_ms, w.retry_attempts,
      w.secret_enc, w.previous_secret_enc, w.previous_secret_expires_at`)) as unknown as Record<string, any>[];
  return rows.map((r) => ({
    d: { id: r.id, eventId: r.event_id, event: r.event, body: r.body, attempts: r.attempts, isTest: r.is_test },
    w: {
      url: r.url,
      timeoutMs: r.timeout_ms,
      retryAttempts: r.retry_attempts,
      secretEnc: r.secret_enc,
      previousSecretEnc: r.previous_secret_enc,
      previousSecretExpiresAt: r.previous_secret_expires_at ? new Date(r.previous_secret_expires_at) : null,
    },
    webhookId: r.webhook_id,
  }));
}

/** Requests in flight at once, across all receivers: one slow receiver holds one lane, not the others. */
const IN_FLIGHT = 10;

/**
 * Delivers due deliveries: claimed with a lease (SKIP LOCKED) — a worker that dies mid-delivery loses
 * nothing: the lease runs out and another worker sends it again, with the same event id for the
 * receiver to ignore if it had already got it. At most 10 requests are in flight; the window is kept
 * full — the next batch is claimed while the last requests of this one are still out, and results are
 * written in group commits while others are in flight — up to `batches` claims of `limit` per call.
 */
export async function deliverDue(
  db: DbOrTx,
  clock: Clock,
  opts: {
    limit?: number;
    batches?: number /** More may arrive (dispatch still running): a short claim does not end the call. */;
    more?: () => boolean;
  } = {},
): Promise<{ attempted: number; delivered: number }> {
  const limit = opts.limit ?? 100;
  const maxBatches = opts.batches ?? 1;
  const queue: Claimed[] = [];
  let claims = 0;
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  const refill = () => {
    if (claiming || exhausted || claims >= maxBatches) return;
    claims++;
    claiming = (async () => {
      const rows = await claimDue(db, clock.now(), limit);
      if (rows.length === 0 && opts.more?.()) {
        // Nothing committed yet but more is coming: not a batch; look again shortly.
        claims--;
        await new Promise((r) => setTimeout(r, 10));
      } else if (rows.length < limit && !opts.more?.()) exhausted = true;
      queue.push(...rows);
      claiming = null;
    })();
  };
  refill();
  await claiming;
  if (queue.length === 0 && !opts.more?.()) return { attempted: 0, delivered: 0 };

  const secrets = new Map<string, string[]>(); // decrypted once per webhook per call
  const report = { attempted: 0, delivered: 0 };
  const pending: ReturnType<typeof afterAttempt>[] = [];
  let writing: Promise<void> | null = null;
  const flush = () => {
    if (writing || pending.length === 0) return;
    writing = (async () => {
      while (pending.length) await recordAttempts(db, pending.splice(0));
      writing = null;
    })();
  };
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (;;) {
        if (queue.length < IN_FLIGHT * 2) refill();
        const next = queue.shift();
        if (!next) {
          if (claiming) {
            await claiming;
            continue;
          }
          return;
        }
        const now = clock.now();
        if (!secrets.has(next.webhookId)) secrets.set(next.webhookId, signingSecrets(next.w as WebhookRow, now));
        const result = afterAttempt(next.d, next.w, await post(next.d, next.w, now, secrets.get(next.webhookId)!), now);
        report.attempted++;
        if (result.status === "DELIVERED") report.delivered++;
        pending.push(result);
        flush();
      }
    }),
  );
  while (writing) await writing;
  flush();
  while (writing) await writing;
  return report;
}

/**
 * One turn of the webhook job: new outbox events become deliveries while due deliveries go out — the
 * two overlap (they touch different rows: dispatch inserts deliveries its transaction has not yet
 * committed; delivery claims committed ones).
 */
export async function webhookTurn(
  db: DbOrTx,
  clock: Clock,
): Promise<{ events: number; deliveries: number; attempted: number; delivered: number }> {
  // Dispatch keeps going (500 events a transaction) while delivery works through what is committed.
  const dispatched = { events: 0, deliveries: 0 };
  let dispatching = true;
  const dispatch = (async () => {
    try {
      for (let i = 0; i < 5; i++) {
        const d = await dispatchEvents(db, clock);
        dispatched.events += d.events;
        dispatched.deliveries += d.deliveries;
        if (d.events < 500) break;
      }
    } finally {
      dispatching = false;
    }
  })();
  const s = await deliverDue(db, clock, { batches: 10, more: () => dispatching });
  await dispatch;
  return { ...dispatched, ...s };
}

export const webhookDispatchJob: JobDef = {
  name: "webhook-deliveries",
  cron: "* * * * *",
  everyMs: 1_000,
  async run({ db, clock }) {
    // Work through a backlog within one run (up to ~5 s), not one batch per tick.
    const until = Date.now() + 5_000;
    const total = { events: 0, deliveries: 0, attempted: 0, delivered: 0 };
    for (;;) {
      const t = await webhookTurn(db, clock);
      total.events += t.events;
      total.deliveries += t.deliveries;
      total.attempted += t.attempted;
      total.delivered += t.delivered;
      if ((t.events === 0 && t.attempted === 0) || Date.now() > until) return total;
    }
  },
};

/** The delivery log is kept for 30 days (spec 6.5 rule 3). */
export async function cleanupDeliveries(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 30 * 24 * 3600_000).toISOString();
  const rows = await db.execute(
    sql`delete from webhook_deliveries where created_at < ${cutoff}::timestamptz and status <> 'PENDING' returning id`,
  );
  return (rows as unknown as unknown[]).length;
}
