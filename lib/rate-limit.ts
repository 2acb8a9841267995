import { type SQL, sql } from "drizzle-orm";
import { selectRows } from "../db/bulk";
import { getDb } from "../db/client";
import { stderrLogger } from "./log";

export interface RateState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetIn: number;
}

/**
 * A fixed-window counter in Postgres (`rate_limit_counters`, key `rl:<bucket>`), counted by one atomic
 * upsert, so that every web process shares it. The window is kept by the database's clock (`now()`),
 * the one clock all web processes share; the statement returns the seconds left, so no time is read
 * here. As a fragment, so that the API-key path can count the request in the statement that looks the
 * key up (one statement instead of two on the hottest path).
 */
export function counterUpsert(key: string, durationSeconds = 60, onlyIf: SQL = sql`true`) {
  const k = `rl:${key}`;
  return sql`insert into rate_limit_counters as c (key, points, expire)
    select ${k}, 1, now() + make_interval(secs => ${durationSeconds}) where ${onlyIf}
    on conflict (key) do update set
      points = case when c.expire <= now() then 1 else c.points + 1 end,
      expire = case when c.expire <= now() then now() + make_interval(secs => ${durationSeconds}) else c.expire end
    returning points, greatest(1, ceil(extract(epoch from expire - now())))::int as reset_in`;
}

export function stateFromCounter(points: number, resetIn: number, limit: number): RateState {
  return { allowed: points <= limit, limit, remaining: Math.max(0, limit - points), resetIn: Math.max(1, resetIn) };
}

/** Counts one request against `key`'s fixed window of `duration` seconds. */
export async function hit(key: string, points: number, duration = 60): Promise<RateState> {
  try {
    const [row] = await selectRows<{ points: number; reset_in: number }>(getDb(), counterUpsert(key, duration));
    return stateFromCounter(row.points, row.reset_in, points);
  } catch (error) {
    // The limiter's store failing must not take the API down with it: fail open, loudly.
    stderrLogger.error("rate-limit store error, request allowed", { key, error });
    return { allowed: true, limit: points, remaining: points, resetIn: duration };
  }
}

/** The X-RateLimit-* headers; `now` is the request's clock (the reset is a Unix time in seconds). */
export function rateHeaders(state: RateState, now: Date): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(Math.ceil(now.getTime() / 1000) + state.resetIn),
  };
}
