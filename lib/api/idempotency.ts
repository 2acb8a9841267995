import { createHash } from "node:crypto";
import { and, eq, isNull, lte } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema";
import { readBodyBytes } from "../body";
import type { Ctx } from "../ctx";
import { AppError, BadRequestError, ConflictError } from "../errors";

/** Decisions, "Idempotency": a key and its first response are kept 24 h; a key is at most 255 characters. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Headers of the first response that a replay must not repeat: they describe that moment, not the result. */
const NOT_REPLAYED = /^(x-ratelimit-|retry-after$|set-cookie$|date$|content-length$)/i;

/** The POST's Idempotency-Key, if it sent one; a malformed key is 400, never silently ignored. */
export function idempotencyKeyOf(req: Request): string | undefined {
  if (req.method !== "POST") return undefined;
  const key = req.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (key.trim() === "") throw new BadRequestError("Idempotency-Key must not be empty");
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new BadRequestError(`Idempotency-Key is ${key.length} characters long; the limit is ${MAX_IDEMPOTENCY_KEY_LENGTH}`);
  }
  return key;
}

/**
 * What makes two requests "the same": method, path with query, an upload's file name and the raw body bytes. Read from a
 * clone taken before the body step, with the route's own size limit, so a huge body is 413 here too.
 */
export async function requestFingerprint(copy: Request, limit: number): Promise<string> {
  const url = new URL(copy.url);
  const bytes = await readBodyBytes(copy, limit);
  // X-Filename names a raw upload's file (POST /replies/uploads): part of the request, like the body.
  const head = `${copy.method} ${url.pathname}${url.search}\n${copy.headers.get("x-filename") ?? ""}\n`;
  return createHash("sha256").update(head).update(bytes).digest("hex");
}

export type Claim = { kind: "claimed"; key: string } | { kind: "replay"; response: Response };

/**
 * Claims the key for this request, or answers from its first use. The claim is its own INSERT … ON
 * CONFLICT DO NOTHING, committed before the handler runs, so of two concurrent identical requests
 * exactly one gets the row and writes; the other sees it in flight (409) or finished (replay).
 */
export async function claimIdempotencyKey(ctx: Ctx, key: string, hash: string, attempt = 0): Promise<Claim> {
  const now = ctx.clock.now();
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({
      workspaceId: ctx.workspaceId,
      key,
      requestHash: hash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { kind: "claimed", key };
  const mine = and(eq(idempotencyKeys.workspaceId, ctx.workspaceId), eq(idempotencyKeys.key, key));
  const [row] = await ctx.db.select().from(idempotencyKeys).where(mine);
  if (!row || row.expiresAt <= now) {
    // Expired (or released a moment ago): the key is free again. Deleting only an expired row keeps a
    // concurrent fresh claim; a second attempt is enough because the next insert either wins or finds a live row.
    if (attempt > 0) throw new ConflictError("This Idempotency-Key is being reused concurrently; retry");
    if (row) await ctx.db.delete(idempotencyKeys).where(and(mine, lte(idempotencyKeys.expiresAt, now)));
    return claimIdempotencyKey(ctx, key, hash, attempt + 1);
  }
  if (row.requestHash !== hash) {
    throw new AppError("IDEMPOTENCY_MISMATCH", "This Idempotency-Key was used with a different request; use a new key for a new request");
  }
  if (row.status === null) {
    throw new ConflictError("A request with this Idempotency-Key is still running; retry once it has finished");
  }
  const headers = new Headers(row.responseHeaders ?? {});
  headers.set("Idempotent-Replayed", "true");
  return { kind: "replay", response: new Response(row.responseBody, { status: row.status, headers }) };
}

/**
 * Stores the first response under the claimed key. A 5xx or 429 is not a result (nothing was decided),
 * so the key is released and a retry runs the request again.
 */
export async function recordIdempotentResponse(ctx: Ctx, key: string, res: Response): Promise<Response> {
  const mine = and(eq(idempotencyKeys.workspaceId, ctx.workspaceId), eq(idempotencyKeys.key, key));
  if (res.status >= 500 || res.status === 429) {
    await releaseIdempotencyKey(ctx, key);
    return res;
  }
  const body = await res.clone().text();
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!NOT_REPLAYED.test(k)) headers[k] = v;
  });
  await ctx.db.update(idempotencyKeys).set({ status: res.status, responseBody: body, responseHeaders: headers }).where(mine);
  return res;
}

/** Gives the key up after an unexpected failure, so that the client's retry is not stuck on 409. */
export async function releaseIdempotencyKey(ctx: Ctx, key: string): Promise<void> {
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.workspaceId, ctx.workspaceId), eq(idempotencyKeys.key, key), isNull(idempotencyKeys.status)));
}
