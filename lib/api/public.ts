import type { z } from "zod";
import { getDb } from "../../db/client";
import { DEFAULT_JSON_LIMIT, readJson } from "../body";
import { currentClock } from "../clock";
import { rateLimits } from "../env";
import { RateLimitedError } from "../errors";
import type { PublicCtx } from "../auth/link-tokens";
import { stderrLogger } from "../log";
import { hit, rateHeaders, type RateState } from "../rate-limit";
import { clientIp, ipBucket } from "./request-credentials";
import { errorResponse } from "./errors";
import { checkIds, parseBody } from "./handler";
import type { RouteDef } from "./route";

/**
 * The edge of the public routes (`credential: "public"`): the links a person opens from an email —
 * accepting an invitation, resetting a password, confirming an email address — work without any
 * credential, since the link's token is the credential. Each request counts against the caller's IP
 * (the limit of requests without credentials), and once more against the route's own tighter limit
 * when it has one (a password or a link being tried); then the body is read and checked by the
 * contract's schema, and errors take the API's usual shape.
 */

type Infer<S> = [S] extends [z.ZodType] ? z.output<S> : undefined;

export interface PublicArgs<B> {
  ctx: PublicCtx;
  req: Request;
  body: B;
  params: Record<string, string>;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

async function countIp(def: RouteDef, req: Request, headers: Record<string, string>): Promise<void> {
  if (!rateLimits.enabled) return;
  const bucket = ipBucket(req);
  const states: RateState[] = [await hit(bucket.rateKey, bucket.ratePoints)];
  if (def.extraLimit) {
    const { name, points, durationSeconds } = def.extraLimit;
    states.push(await hit(`${name}:${bucket.rateKey}`, points, durationSeconds));
  }
  // The headers tell of the tighter of the two counters.
  const shown = states.reduce((a, b) => (b.remaining < a.remaining || !b.allowed ? b : a));
  Object.assign(headers, rateHeaders(shown, currentClock().now()));
  const refused = states.find((s) => !s.allowed);
  if (refused) throw new RateLimitedError(`Too many requests from this address: at most ${refused.limit} for now`, refused.resetIn);
}

async function bodyOf(def: RouteDef, req: Request): Promise<unknown> {
  if (!def.body) return undefined;
  const { value, mayHoldNul } = await readJson(req, def.bodyLimit ?? DEFAULT_JSON_LIMIT, def.bodyOptional ? {} : undefined);
  return parseBody(def, value, mayHoldNul);
}

async function paramsOf(routeCtx?: NextRouteContext): Promise<Record<string, string>> {
  const p = routeCtx?.params ? await routeCtx.params : {};
  return checkIds(Object.fromEntries(Object.entries(p).map(([k, raw]) => [k, Array.isArray(raw) ? raw.join("/") : raw])));
}

/** A public route's handler: IP rate limit → path params → body → handler → errors in the API's shape. */
export function publicApi<B extends z.ZodType | undefined>(
  def: RouteDef<undefined, B>,
  handler: (args: PublicArgs<Infer<B>>) => Promise<unknown>,
) {
  const route = async (req: Request, routeCtx?: NextRouteContext): Promise<Response> => {
    const headers: Record<string, string> = {};
    try {
      await countIp(def as RouteDef, req, headers);
      const params = await paramsOf(routeCtx);
      const body = (await bodyOf(def as RouteDef, req)) as Infer<B>;
      const ctx: PublicCtx = { db: getDb(), clock: currentClock(), log: stderrLogger, ip: clientIp(req) };
      const result = await handler({ ctx, req, body, params });
      const res = result instanceof Response ? result : Response.json(result ?? null, { status: def.response?.status ?? 200 });
      for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
      return res;
    } catch (err) {
      return errorResponse(err, new Headers(headers));
    }
  };
  return Object.assign(route, { contract: def as RouteDef });
}
