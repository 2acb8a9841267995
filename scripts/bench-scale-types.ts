/**
 * The contract between `npm run bench:scale` (scripts/bench-scale.ts) and its parts. Each part
 * (scheduler, reply sync, leads, analytics, deleting) lives in its own scripts/bench-scale-<part>.ts,
 * exports a `Part`, seeds its own world (COPY / generate_series, rollups backfilled in SQL), measures
 * each size, checks its own answers, and returns its curves and judged targets. The runner prints
 * every curve as a table and one final JSON line.
 */

/** One row per size: the cost at that size and the cost per unit (per mailbox, per 1,000 leads …). */
export interface Curve {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

/** A judged figure: the median of the runs, their spread, and PASS only when the median meets the limit. */
export interface Target {
  name: string;
  unit: string;
  /** "<=": at most `limit` (a latency); ">=": at least `limit` (a ratio). */
  cmp: "<=" | ">=";
  limit: number;
  median: number;
  min: number;
  max: number;
  runs: number[];
  pass: boolean;
}

/** The bench checking its own answers: every reply found exactly once, counts exact … */
export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface PartResult {
  part: string;
  curves: Curve[];
  targets: Target[];
  checks: Check[];
  /** Anything else worth keeping in the JSON line (disk bytes, sockets, RSS …). */
  figures?: Record<string, unknown>;
}

export interface PartOptions {
  /**
   * 1 = the judged sizes. BENCH_SCALE=0.05 (say) multiplies every size for a quick run; a part rounds
   * and keeps its sizes distinct.
   */
  scale: number;
  /** Runs per judged figure (BENCH_RUNS, default 3). */
  runs: number;
  /** A line of progress (seeding counts, each run's figure). */
  log: (line: string) => void;
}

export type Part = (opts: PartOptions) => Promise<PartResult>;

/** A Target from a figure's runs: median, spread, and the verdict. */
export function target(name: string, unit: string, cmp: "<=" | ">=", limit: number, runs: number[]): Target {
  const sorted = [...runs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const pass = cmp === "<=" ? median <= limit : median >= limit;
  return { name, unit, cmp, limit, median, min: sorted[0], max: sorted[sorted.length - 1], runs, pass };
}

/** A size scaled for a quick run, never below `min`. */
export function scaled(size: number, scale: number, min = 1): number {
  return Math.max(min, Math.round(size * scale));
}
