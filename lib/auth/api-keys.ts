import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { apiKeys, memberships } from "../../db/schema";
import { audit } from "../audit/record";
import { type Ctx, type Scope, withTransaction } from "../ctx";
import type { Role } from "../roles";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";

/** Keys are prefixed so that secret scanners can find leaked ones. */
export const KEY_PREFIX = "ok_live_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** 36 base62 characters from unbiased random bytes (bytes ≥ 248 are dropped, so more are drawn until there are enough). */
function randomKey(): string {
  let s = "";
  while (s.length < 36) for (const b of randomBytes(40)) if (b < 248 && s.length < 36) s += BASE62[b % 62];
  return KEY_PREFIX + s;
}

export interface ApiKeyView {
  id: string;
  name: string;
  scope: Scope;
  prefix: string;
  createdBy: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  status: "active" | "expired" | "revoked";
}

function view(row: typeof apiKeys.$inferSelect, now: Date): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdBy: row.createdBy,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    status: row.revokedAt ? "revoked" : row.expiresAt && row.expiresAt <= now ? "expired" : "active",
  };
}

function actingUser(ctx: Ctx): string {
  if (ctx.actor.type === "apiKey") throw new ForbiddenError("API keys are managed from a dashboard session, not with an API key");
  if (ctx.actor.type !== "session") throw new ForbiddenError("API keys belong to a member");
  return ctx.actor.userId;
}

/** Creates a key acting as `userId` in the workspace. The plain key is returned once, never stored. */
export async function issueApiKey(
  db: DbOrTx,
  input: { workspaceId: string; userId: string; name?: string; scope: Scope; expiresAt?: Date | null },
  now: Date,
): Promise<ApiKeyView & { key: string }> {
  if (input.expiresAt && input.expiresAt <= now) throw ValidationError.field("expiresAt", "must be in the future");
  const key = randomKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId("key"),
      workspaceId: input.workspaceId,
      createdBy: input.userId,
      name: input.name?.trim() || `${input.scope === "full" ? "Full-access" : "Read-only"} key`,
      scope: input.scope,
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      hash: hashApiKey(key),
      expiresAt: input.expiresAt ?? null,
    })
    .returning();
  return { ...view(row, now), key };
}

export async function createApiKey(ctx: Ctx, input: { name?: string; scope: Scope; expiresAt?: Date | null }) {
  const userId = actingUser(ctx);
  return withTransaction(ctx, async (tx, txCtx) => {
    const created = await issueApiKey(tx, { ...input, workspaceId: ctx.workspaceId, userId }, ctx.clock.now());
    await audit(txCtx, "api_key.created", keyTarget(created), { scope: created.scope, expiresAt: created.expiresAt });
    return created;
  });
}

/** A key as the audit log names it: its name and prefix (never the key). */
function keyTarget(k: Pick<ApiKeyView, "id" | "name" | "prefix">) {
  return { type: "api_key", id: k.id, label: `${k.name} (${k.prefix}…)` };
}

export async function listApiKeys(ctx: Ctx): Promise<ApiKeyView[]> {
  actingUser(ctx);
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, ctx.workspaceId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const now = ctx.clock.now();
  return rows.map((r) => view(r, now));
}

export async function revokeApiKey(ctx: Ctx, id: string): Promise<ApiKeyView> {
  actingUser(ctx);
  return withTransaction(ctx, async (tx, txCtx) => {
    const [before] = await tx
      .select({ revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, ctx.workspaceId)));
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${ctx.clock.now().toISOString()}::timestamptz)` })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, ctx.workspaceId)))
      .returning();
    if (!row) throw new NotFoundError("API key");
    if (!before?.revokedAt) await audit(txCtx, "api_key.revoked", keyTarget(row), {});
    return view(row, ctx.clock.now());
  });
}

export type KeyLookup =
  | { ok: true; keyId: string; workspaceId: string; userId: string; role: Role; scope: Scope; lastUsedAt: Date | null }
  | { ok: false; reason: string };

export interface KeyRow {
  id: string;
  workspaceId: string;
  createdBy: string;
  scope: Scope;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  role: Role | null;
}

/** Whether a stored key may act now, and if not, why (each reason is a 401). */
export function evaluateKey(row: KeyRow | undefined, now: Date): KeyLookup {
  if (!row) return { ok: false, reason: "Invalid API key" };
  if (row.revokedAt) return { ok: false, reason: "This API key has been revoked" };
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, reason: `This API key expired at ${row.expiresAt.toISOString()}` };
  if (!row.role) return { ok: false, reason: "The member who created this API key has left the workspace" };
  return {
    ok: true,
    keyId: row.id,
    workspaceId: row.workspaceId,
    userId: row.createdBy,
    role: row.role,
    scope: row.scope,
    lastUsedAt: row.lastUsedAt,
  };
}

/** Finds the key a Bearer token names, with the role of the member who created it. */
export async function lookupApiKey(db: DbOrTx, token: string, now: Date): Promise<KeyLookup> {
  if (!token.startsWith(KEY_PREFIX)) return { ok: false, reason: "Invalid API key" };
  const [row] = await db
    .select({
      id: apiKeys.id,
      workspaceId: apiKeys.workspaceId,
      createdBy: apiKeys.createdBy,
      scope: apiKeys.scope,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      role: memberships.role,
    })
    .from(apiKeys)
    .leftJoin(memberships, and(eq(memberships.workspaceId, apiKeys.workspaceId), eq(memberships.userId, apiKeys.createdBy)))
    .where(eq(apiKeys.hash, hashApiKey(token)));
  return evaluateKey(row, now);
}

/** Records use at most once a minute per key, so that reads stay one query. */
export async function touchApiKey(db: DbOrTx, keyId: string, lastUsedAt: Date | null, now: Date): Promise<void> {
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < 60_000) return;
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId));
}
