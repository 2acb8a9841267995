import { z } from "zod";
import { ValidationError } from "../errors";

/** An analytics period is at most 366 days; 30 by default. */
export const MAX_PERIOD_DAYS = 366;
export const DEFAULT_PERIOD_DAYS = 30;
/** Time-series `days` is at most 90. */
export const MAX_SERIES_DAYS = 90;
const DAY_MS = 86_400_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A date-time without an offset is read as UTC (a bare date is midnight UTC), never as the server's zone.
const DATE_TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** An ISO date (midnight UTC) or date-time; null when it is not one or names a day that does not exist. */
export function parseInstant(s: string): Date | null {
  const d = DATE_RE.exec(s);
  if (d) {
    const at = new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3])));
    // Date.UTC rolls 2026-02-30 over to March; such a date is refused, not moved.
    return at.toISOString().slice(0, 10) === s ? at : null;
  }
  if (!DATE_TIME_RE.test(s)) return null;
  const day = s.slice(0, 10);
  if (parseInstant(day) === null) return null;
  const at = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(s.slice(10)) ? s : `${s}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

export interface Period {
  from: Date;
  /** Exclusive. */
  to: Date;
}

export type PeriodInput = { from?: string; to?: string; days?: number };

/** The period's fields; compose with `refinePeriod` of the same maximum. */
export const periodShape = (maxDays = MAX_PERIOD_DAYS) => ({
  from: z.string().optional(),
  to: z.string().optional(),
  days: z.coerce.number().int().min(1, "days must be 1 or more").max(maxDays, `days can be at most ${maxDays}`).optional(),
});

/**
 * Checks a period where the query is parsed, so a bad one is a 400 VALIDATION_ERROR on its field
 * (see docs/analytics.md); `resolvePeriod` then turns it into instants with the clock.
 */
export const refinePeriod =
  (maxDays = MAX_PERIOD_DAYS) =>
  (q: PeriodInput, c: z.RefinementCtx) => {
    const from = q.from === undefined ? undefined : parseInstant(q.from);
    const to = q.to === undefined ? undefined : parseInstant(q.to);
    const bad = (path: string) => c.addIssue({ code: "custom", path: [path], message: "must be an ISO date (YYYY-MM-DD) or date-time" });
    if (from === null) bad("from");
    if (to === null) bad("to");
    if (q.days !== undefined && (q.from !== undefined || q.to !== undefined)) {
      c.addIssue({ code: "custom", path: ["days"], message: "give either days or from/to, not both" });
    }
    if (!from || !to) return;
    if (to.getTime() <= from.getTime()) c.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
    else if (to.getTime() - from.getTime() > maxDays * DAY_MS) {
      c.addIssue({ code: "custom", path: ["to"], message: `the period can be at most ${maxDays} days` });
    }
  };

/** A query of just the period. */
export const periodQuery = (maxDays = MAX_PERIOD_DAYS) => z.object(periodShape(maxDays)).superRefine(refinePeriod(maxDays));

/**
 * The period's instants: `from`/`to` as given (`to` exclusive); only `from` → until now; only `to` →
 * the default length before it; `days` (or nothing: 30) → that many days back from now.
 */
export function resolvePeriod(q: PeriodInput, now: Date, maxDays = MAX_PERIOD_DAYS): Period {
  const from = q.from ? parseInstant(q.from) : null;
  const to = q.to ? parseInstant(q.to) : null;
  if (from && to) return { from, to };
  if (from) {
    // Only `from`: until now, still within the longest period (a `from` years back is refused, not cut).
    if (from.getTime() >= now.getTime()) throw ValidationError.field("from", "must be before now when to is not given");
    if (now.getTime() - from.getTime() > maxDays * DAY_MS) throw ValidationError.field("from", `the period can be at most ${maxDays} days`);
    return { from, to: now };
  }
  const end = to ?? now;
  const days = Math.min(q.days ?? DEFAULT_PERIOD_DAYS, maxDays);
  return { from: new Date(end.getTime() - days * DAY_MS), to: end };
}

/** The start (UTC midnight) of the first of the last `days` UTC days, today included. */
export function firstOfDays(now: Date, days: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/** The last `days` UTC days, today included: the period of a time series and of sent-trends. */
export const lastUtcDays = (now: Date, days: number): Period => ({ from: firstOfDays(now, days), to: firstOfDays(now, 0) });

/** Each UTC day (YYYY-MM-DD) that the period touches, oldest first. */
export function utcDays(p: Period): string[] {
  const out: string[] = [];
  const first = firstOfDays(p.from, 1).getTime();
  for (let t = first; t < p.to.getTime(); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export const periodView = (p: Period) => ({ from: p.from.toISOString(), to: p.to.toISOString() });

/**
 * A time series' period: `days` (default 30) whole UTC days, today included, so each row is a full
 * day; `from`/`to` as given (at most 90 days).
 */
export function seriesPeriod(q: PeriodInput, now: Date): Period {
  if (q.from === undefined && q.to === undefined) return lastUtcDays(now, q.days ?? DEFAULT_PERIOD_DAYS);
  return resolvePeriod(q, now, MAX_SERIES_DAYS);
}
