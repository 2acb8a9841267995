import { sql, type SQL } from "drizzle-orm";
import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import { getDb } from "../db/client";
import { rateLimitCounters } from "../db/schema";

export interface RateState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetIn: number;
}

const limiters = new Map<string, RateLimiterDrizzle>();

function limiter(points: number, duration: number): RateLimiterDrizzle {
  const id = `${points}/${duration}`;
  let l = limiters.get(id);
  if (!l) {
    // Counters live in Postgres (one atomic upsert per hit) so that every web process shares them.
    l = new RateLimiterDrizzle({
      storeClient: getDb(),
      schema: rateLimitCounters,
      points,
      duration,
      keyPrefix: "rl",
      clearExpiredByTimeout: false,
    });
    limiters.set(id, l);
  }
  return l;
}

/** Counts one request against `key`'s fixed window of `duration` seconds. */
export async function hit(key: string, points: number, duration = 60): Promise<RateState> {
  try {
    const res = await limiter(points, duration).consume(key, 1);
    return { allowed: true, limit: points, remaining: res.remainingPoints, resetIn: Math.ceil(res.msBeforeNext / 1000) };
  } catch (e) {
    if (e instanceof RateLimiterRes) {
      return { allowed: false, limit: points, remaining: 0, resetIn: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
    }
    // The limiter's store failing must not take the API down with it: fail open, loudly.
    console.error("[rate-limit] store error, request allowed", e);
    return { allowed: true, limit: points, remaining: points, resetIn: duration };
  }
}

export function rateHeaders(state: RateState, now = Date.now()): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    // Unix time (seconds) at which the current window ends.
    "X-RateLimit-Reset": String(Math.ceil(now / 1000) + state.resetIn),
  };
}

/**
 * The same fixed-window upsert as the Drizzle store above, as a SQL fragment, so that the API-key
 * path can count the request in the statement that looks the key up (one statement instead of two on
 * the hottest path). Rows are shared with the store: same table, same `rl:` key prefix, same columns.
 */
export function counterUpsert(key: string, durationSeconds = 60, onlyIf: SQL = sql`true`) {
  const k = `rl:${key}`;
  return sql`insert into rate_limit_counters as c (key, points, expire)
    select ${k}, 1, now() + make_interval(secs => ${durationSeconds}) where ${onlyIf}
    on conflict (key) do update set
      points = case when c.expire <= now() then 1 else c.points + 1 end,
      expire = case when c.expire <= now() then now() + make_interval(secs => ${durationSeconds}) else c.expire end
    returning points, expire`;
}

export function stateFromCounter(points: number, expire: Date | string, limit: number): RateState {
  const msLeft = Math.max(0, new Date(expire).getTime() - Date.now());
  return { allowed: points <= limit, limit, remaining: Math.max(0, limit - points), resetIn: Math.max(1, Math.ceil(msLeft / 1000)) };
}
