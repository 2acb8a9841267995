import { stderrLogger } from "../log";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { currentClock } from "../clock";
import { requireAccess, requireRole, type Ctx } from "../ctx";
import { routeMinRole, usableBeforeEnrolment } from "../roles";
import { rateLimits } from "../env";
import { ForbiddenError, RateLimitedError, UnauthorizedError, ValidationError } from "../errors";
import { DEFAULT_JSON_LIMIT, readJson } from "../body";
import { clientIp, presentedCredential, rateBucket, resolveCredential, type Credential } from "./request-credentials";
import { errorResponse, validationErrorFromZod } from "./errors";
import { requireSameOrigin } from "./origin";
import { hit, rateHeaders, type RateState } from "../rate-limit";
import { claimIdempotencyKey, idempotencyKeyOf, recordIdempotentResponse, requestFingerprint } from "./idempotency";
import type { RouteDef } from "./route";
import { refuseUnknownFields } from "./unknown-fields";

type Infer<S> = [S] extends [z.ZodType] ? z.output<S> : undefined;

export interface HandlerArgs<Q, B> {
  ctx: Ctx;
  req: Request;
  query: Q;
  body: B;
  params: Record<string, string>;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

/** Turns a handler's plain return value into JSON; a Response passes through. */
function toResponse(result: unknown, status = 200): Response {
  if (result instanceof Response) return result;
  return Response.json(result ?? null, { status });
}

function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
}

/**
 * Credential and rate limit together: the bucket is known from what the request presents, so the
 * counter is hit while the key is looked up (one round trip of latency, not two). A presented key or
 * session that turns out invalid is counted against the caller's IP instead.
 */
async function credentialAndRateStep(req: Request, now: Date): Promise<{ cred: Credential; rate?: RateState }> {
  const presented = await presentedCredential(req);
  const bucket = rateBucket(req, presented);
  if (!rateLimits.enabled) return { cred: await resolveCredential(getDb(), req, now, presented) };
  if (presented.kind === "apiKey") {
    // The hottest path: the key's counter is bumped inside the statement that finds the key.
    const counted: { state?: RateState } = {};
    const cred = await resolveCredential(getDb(), req, now, presented, counted);
    if (cred.ok && counted.state) return { cred, rate: counted.state };
    return { cred, rate: await hit(cred.rateKey, cred.ratePoints) };
  }
  const [cred, first] = await Promise.all([resolveCredential(getDb(), req, now, presented), hit(bucket.rateKey, bucket.ratePoints)]);
  if (cred.rateKey === bucket.rateKey) return { cred, rate: first };
  return { cred, rate: await hit(cred.rateKey, cred.ratePoints) };
}

export function scopeStep(def: RouteDef, ctx: Ctx): void {
  if (def.credential === "session" && ctx.actor.type !== "session") {
    throw new ForbiddenError("This route is for a dashboard session only; an API key cannot call it");
  }
  requireAccess(ctx, def.access);
  const min = routeMinRole(def);
  if (ctx.actor.type === "session" && ctx.actor.mustEnrolTwoFactor && !usableBeforeEnrolment(def)) {
    throw new ForbiddenError("This workspace requires two-factor sign-in: turn it on under Settings → Security first");
  }
  requireRole(ctx, min);
}

/** A route's own tighter limit beside the key's (for example a placement test mails every seed). */
export async function extraLimitStep(def: RouteDef, cred: Credential & { ok: true }): Promise<void> {
  if (!def.extraLimit || !rateLimits.enabled) return;
  const { name, points, durationSeconds } = def.extraLimit;
  const s = await hit(`${name}:${cred.rateKey}`, points, durationSeconds);
  if (!s.allowed)
    throw new RateLimitedError(`Too many requests to this route: at most ${points} per ${durationSeconds} seconds`, s.resetIn);
}

/** The route's query from its raw text values (REST's search params, an MCP tool's arguments). */
export function parseQuery(def: RouteDef, raw: Record<string, string>): unknown {
  if (!def.query) return undefined;
  const r = def.query.safeParse(raw);
  if (!r.success) throw validationErrorFromZod(r.error, "query");
  return r.data;
}

function queryStep(def: RouteDef, req: Request): unknown {
  if (!def.query) return undefined;
  return parseQuery(def, Object.fromEntries(new URL(req.url).searchParams));
}

/** The path of the first string holding a NUL character (Postgres text cannot store one), if any. */
function nulPath(value: unknown, at: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? at || "(body)" : undefined;
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = nulPath(v, at ? `${at}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The route's body from parsed JSON (REST's request body, an MCP tool's arguments): a string holding
 * NUL is refused, then unknown fields (lib/api/unknown-fields.ts), then zod. `mayHoldNul` false skips the NUL walk when the text showed none can be there.
 */
export function parseBody(def: RouteDef, json: unknown, mayHoldNul = true): unknown {
  if (!def.body) return undefined;
  const nul = mayHoldNul ? nulPath(json, "") : undefined;
  if (nul) throw ValidationError.field(nul, "contains a NUL character (\\u0000), which cannot be stored");
  // Before the fast path too: a body `bodyCheck` recognises must still name only known fields.
  refuseUnknownFields(def, json);
  if (def.bodyCheck?.(json)) return json;
  const r = def.body.safeParse(json);
  if (!r.success) throw validationErrorFromZod(r.error, "body");
  return r.data;
}

async function bodyStep(def: RouteDef, req: Request): Promise<unknown> {
  if (!def.body) return undefined;
  const { value: json, mayHoldNul } = await readJson(req, def.bodyLimit ?? DEFAULT_JSON_LIMIT, def.bodyOptional ? {} : undefined);
  return parseBody(def, json, mayHoldNul);
}

/** Longest path id accepted: ours are ~30 characters; anything far longer cannot be one. */
const MAX_ID_LENGTH = 200;

/**
 * Path params as Next.js decoded them (once: decoding again broke on a literal `%`). A value that
 * cannot be an id at all — control characters (NUL cannot even reach Postgres), or far too long — is
 * 400; any other value that is not one of ours becomes 404 in the route's finder.
 */
async function paramsStep(routeCtx?: NextRouteContext): Promise<Record<string, string>> {
  const p = routeCtx?.params ? await routeCtx.params : {};
  return checkIds(Object.fromEntries(Object.entries(p).map(([k, raw]) => [k, Array.isArray(raw) ? raw.join("/") : raw])));
}

/** Path ids (REST's path params, an MCP tool's id arguments): one that cannot be an id at all is 400. */
export function checkIds(p: Record<string, string>): Record<string, string> {
  for (const [k, v] of Object.entries(p)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(v)) throw ValidationError.field(k, "contains control characters, so it cannot be an id");
    if (v.length > MAX_ID_LENGTH) throw ValidationError.field(k, `is ${v.length} characters long; ids are at most ${MAX_ID_LENGTH}`);
  }
  return p;
}

/** The limit the fingerprint reads up to: the route's own, or for a route reading its body itself (uploads) a generous cap. */
function fingerprintLimit(def: RouteDef): number {
  return def.bodyLimit ?? (def.body ? DEFAULT_JSON_LIMIT : 32 * 1024 * 1024);
}

/**
 * The steps REST and MCP share: credential → rate limit (headers into `headers`, also for a refusal)
 * → 401 → a session's cross-site write refused (403). One request, one hit on the caller's counter,
 * whichever door it came in by (the same per-key limit for REST and MCP).
 */
export async function edgeContext(req: Request, headers: Record<string, string>): Promise<{ ctx: Ctx; cred: Credential & { ok: true } }> {
  const clock = currentClock();
  const { cred, rate } = await credentialAndRateStep(req, clock.now());
  if (rate) Object.assign(headers, rateHeaders(rate, clock.now()));
  if (rate && !rate.allowed) throw new RateLimitedError(`Rate limit of ${rate.limit} requests per minute exceeded`, rate.resetIn);
  if (!cred.ok) throw new UnauthorizedError(cred.reason);
  // The browser sends the session cookie on its own, also for a request another site's page makes.
  if (cred.actor.type === "session") requireSameOrigin(req);
  return { ctx: { workspaceId: cred.workspaceId, actor: cred.actor, db: getDb(), clock, log: stderrLogger, ip: clientIp(req) }, cred };
}

/**
 * Runs the handler once per Idempotency-Key ("Idempotency"): claimed after validation (a
 * refused body is not a result), then the response — an error response too — is stored for replay.
 */
async function idempotentRun(ctx: Ctx, key: string, hash: Promise<string>, run: () => Promise<Response>): Promise<Response> {
  const claim = await claimIdempotencyKey(ctx, key, await hash);
  if (claim.kind === "replay") return claim.response;
  let res: Response;
  try {
    res = await run();
  } catch (err) {
    res = errorResponse(err);
  }
  return recordIdempotentResponse(ctx, key, res);
}

/**
 * The API edge. In order: credential → scope → rate limit (headers on every response) → body size →
 * zod → idempotency claim → handler → error mapping. Route files stay thin: parse → call one lib verb → serialize.
 */
export function api<Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  def: RouteDef<Q, B>,
  handler: (args: HandlerArgs<Infer<Q>, Infer<B>>) => Promise<unknown>,
) {
  const route = async (req: Request, routeCtx?: NextRouteContext): Promise<Response> => {
    const headers: Record<string, string> = {};
    try {
      const { ctx, cred } = await edgeContext(req, headers);
      scopeStep(def as RouteDef, ctx);
      await extraLimitStep(def as RouteDef, cred);
      const idemKey = idempotencyKeyOf(req);
      // Cloned before the body step reads the stream: the fingerprint is of the bytes as sent.
      const hash = idemKey ? requestFingerprint(req.clone(), fingerprintLimit(def as RouteDef)) : undefined;
      // A body refused by the body step below must not leave this read as an unhandled rejection.
      hash?.catch(() => {});
      const query = queryStep(def as RouteDef, req) as Infer<Q>;
      const body = (await bodyStep(def as RouteDef, req)) as Infer<B>;
      const params = await paramsStep(routeCtx);
      const run = async () => toResponse(await handler({ ctx, req, query, body, params }), def.response?.status);
      const res = idemKey && hash ? await idempotentRun(ctx, idemKey, hash, run) : await run();
      return withHeaders(res, headers);
    } catch (err) {
      return errorResponse(err, new Headers(headers));
    }
  };
  // The contract travels with the handler, so a test can check an answer against the route's own schema.
  return Object.assign(route, { contract: def as RouteDef });
}
