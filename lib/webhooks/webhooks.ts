import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { offsetOf } from "../paging";
import { encryptSecret } from "../crypto/secretbox";
import { audit } from "../audit/record";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newEventId, newId } from "../ids";
import { checkOutboundUrl } from "../net/ssrf";
import { attemptDelivery, type DeliveryRow, type WebhookRow } from "./deliver";
import { envelope } from "./dispatch";
import type { createWebhookBody, listDeliveriesQuery, patchWebhookBody } from "./schemas";

export const ROTATION_OVERLAP_MS = 24 * 3600_000;

function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

function view(w: WebhookRow, now: Date) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    active: w.active,
    retryAttempts: w.retryAttempts,
    timeoutMs: w.timeoutMs,
    previousSecretActiveUntil:
      w.previousSecretExpiresAt && w.previousSecretExpiresAt > now ? w.previousSecretExpiresAt.toISOString() : null,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function deliveryView(d: DeliveryRow) {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastResponse: d.lastResponse,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    isTest: d.isTest,
    createdAt: d.createdAt.toISOString(),
  };
}

/**
 * A refused URL is a 400 VALIDATION_ERROR on `url` whose message says why (the guard's words, which
 * name OUTBOUND_ALLOW_HOSTS when the allow list could let it through).
 */
async function requireSafeUrl(url: string): Promise<string> {
  const check = await checkOutboundUrl(url);
  if (!check.ok) throw ValidationError.field("url", `The URL ${check.reason}`);
  return check.url.toString();
}

async function findWebhook(db: DbOrTx, workspaceId: string, id: string): Promise<WebhookRow> {
  const [w] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, workspaceId)));
  if (!w) throw new NotFoundError("Webhook");
  return w;
}

export async function listWebhooks(ctx: Ctx) {
  requireAccess(ctx, "read");
  const rows = await ctx.db.select().from(webhooks).where(eq(webhooks.workspaceId, ctx.workspaceId)).orderBy(desc(webhooks.createdAt));
  return rows.map((w) => view(w, ctx.clock.now()));
}

export async function getWebhook(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  return view(await findWebhook(ctx.db, ctx.workspaceId, id), ctx.clock.now());
}

/** POST /webhooks: the signing secret is in this answer and never again (except after a rotation). */
export async function createWebhook(ctx: Ctx, input: z.infer<typeof createWebhookBody>) {
  requireAccess(ctx, "write");
  const url = await requireSafeUrl(input.url);
  const secret = newSecret();
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx, txCtx) => {
    const [w] = await tx
      .insert(webhooks)
      .values({
        id: newId("whk"),
        workspaceId: ctx.workspaceId,
        url,
        events: [...new Set(input.events)],
        active: input.active ?? true,
        retryAttempts: input.retryAttempts ?? 3,
        timeoutMs: input.timeoutMs ?? 10_000,
        secretEnc: encryptSecret(secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await audit(txCtx, "webhook.created", webhookTarget(w), { events: w.events, active: w.active });
    return { ...view(w, now), secret };
  });
}

/** A webhook as the audit log names it: its URL (the secret never). */
/**
 * A webhook's URL by its origin alone in the audit log: the path of a Slack- or Zapier-style URL is a
 * secret of its own, and the log keeps rows for a year.
 */
function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(unparsable URL)";
  }
}

const webhookTarget = (w: WebhookRow) => ({ type: "webhook", id: w.id, label: urlOrigin(w.url) });

/** PATCH /webhooks/<id>: only sent fields change; the id, the secret and the delivery log stay. */
export async function patchWebhook(ctx: Ctx, id: string, input: z.infer<typeof patchWebhookBody>) {
  requireAccess(ctx, "write");
  const before = await findWebhook(ctx.db, ctx.workspaceId, id);
  const set: Partial<typeof webhooks.$inferInsert> = { updatedAt: ctx.clock.now() };
  if (input.url !== undefined) set.url = await requireSafeUrl(input.url);
  if (input.events !== undefined) set.events = [...new Set(input.events)];
  for (const f of ["active", "retryAttempts", "timeoutMs"] as const)
    if (input[f] !== undefined) (set as Record<string, unknown>)[f] = input[f];
  return withTransaction(ctx, async (tx, txCtx) => {
    const [w] = await tx.update(webhooks).set(set).where(eq(webhooks.id, id)).returning();
    const fields = Object.keys(set).filter((k) => k !== "updatedAt");
    await audit(txCtx, "webhook.updated", webhookTarget(w), { fields, ...(set.url ? { previousOrigin: urlOrigin(before.url) } : {}) });
    return view(w, ctx.clock.now());
  });
}

export async function deleteWebhook(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const w = await findWebhook(ctx.db, ctx.workspaceId, id);
  return withTransaction(ctx, async (tx, txCtx) => {
    await tx.delete(webhooks).where(eq(webhooks.id, id)); // the log goes with it (cascade)
    await audit(txCtx, "webhook.deleted", webhookTarget(w), {});
    return { deleted: true, id };
  });
}

/** A new secret, shown once; for 24 hours requests are signed with both. */
export async function rotateSecret(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const w = await findWebhook(ctx.db, ctx.workspaceId, id);
  const secret = newSecret();
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx, txCtx) => {
    const [updated] = await tx
      .update(webhooks)
      .set({
        secretEnc: encryptSecret(secret),
        previousSecretEnc: w.secretEnc,
        previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        updatedAt: now,
      })
      .where(eq(webhooks.id, id))
      .returning();
    await audit(txCtx, "webhook.secret_rotated", webhookTarget(updated), {
      oldOneSignsUntil: view(updated, now).previousSecretActiveUntil,
    });
    return { ...view(updated, now), secret };
  });
}

/** POST /webhooks/<id>/test: one signed webhook.test, now; logged, never retried. */
export async function testWebhook(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const w = await findWebhook(ctx.db, ctx.workspaceId, id);
  const now = ctx.clock.now();
  const eventId = newEventId();
  const [d] = await ctx.db
    .insert(webhookDeliveries)
    .values({
      id: newId("dlv"),
      workspaceId: ctx.workspaceId,
      webhookId: w.id,
      eventId,
      event: "webhook.test",
      body: envelope({
        id: eventId,
        event: "webhook.test",
        createdAt: now,
        data: { webhookId: w.id, message: "This is a test event from Outreach." },
      }),
      isTest: true,
      createdAt: now,
    })
    .returning();
  const r = await attemptDelivery(ctx.db, ctx.clock, d, w);
  return { delivered: r.delivered, statusCode: r.statusCode, error: r.error, deliveryId: d.id, eventId };
}

export async function listDeliveries(ctx: Ctx, webhookId: string, q: z.infer<typeof listDeliveriesQuery>) {
  requireAccess(ctx, "read");
  await findWebhook(ctx.db, ctx.workspaceId, webhookId);
  const conds = [eq(webhookDeliveries.webhookId, webhookId)];
  if (q.status) conds.push(eq(webhookDeliveries.status, q.status));
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries).where(where),
  ]);
  return { rows: rows.map(deliveryView), total: n };
}

/**
 * POST /webhooks/<id>/deliveries/<deliveryId>/resend: the same body and event id, sent now; on failure
 * it is retried like any delivery.
 */
export async function resendDelivery(ctx: Ctx, webhookId: string, deliveryId: string) {
  requireAccess(ctx, "write");
  const w = await findWebhook(ctx.db, ctx.workspaceId, webhookId);
  const [d] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)));
  if (!d) throw new NotFoundError("Delivery");
  if (d.status === "PENDING") throw new ConflictError("This delivery is still pending; it will be retried on its own");
  const [reset] = await ctx.db
    .update(webhookDeliveries)
    .set({
      status: "PENDING",
      attempts: 0,
      isTest: false,
      nextAttemptAt: ctx.clock.now(),
      leasedUntil: new Date(ctx.clock.now().getTime() + 60_000),
    })
    .where(eq(webhookDeliveries.id, d.id))
    .returning();
  const r = await attemptDelivery(ctx.db, ctx.clock, reset, w);
  const [after] = await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.id));
  return { ...deliveryView(after), delivered: r.delivered };
}
