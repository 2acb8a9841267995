/**
 * `npm run bench:scale`: how the cost grows with an agency's size, part by part (scripts/bench-scale-*.ts):
 *  - scheduler: the send tick at 5,000, 20,000 and 50,000 mailboxes, start of window and mid-day;
 *  - imap: reply sync of 500, 1,000 and 2,000 accounts on a real Dovecot, with and without 40 ms of latency;
 *  - leads: one workspace of 1 and 5 million leads (create, list, search, add to a campaign, export);
 *  - analytics: the overview and the campaign list at 5 and 20 million emails, and the disk per million;
 *  - delete: 1,000 leads, a campaign with its leads, a whole workspace, at those sizes.
 * Each part seeds its own world with COPY / generate_series, measures each size, checks its own answers
 * and judges each figure as the median of BENCH_RUNS runs (default 3) with the spread. This runner
 * prints every curve as a table, the targets with PASS or BELOW TARGET, the self-checks, the whole run's
 * time and the most disk it took, and one final JSON line.
 *
 * Knobs: BENCH_SCALE (default 1 = the judged sizes; 0.05 for a quick run), BENCH_SCALE_PARTS (a comma
 * list of the parts above, default all), BENCH_RUNS (3). The whole judged run is held to 45 minutes and
 * 40 GB of disk; both are judged only at BENCH_SCALE=1.
 */
import { statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { loadAverage, runBench, say, table } from "./bench-util";
import { type Check, type Curve, type Part, type PartResult, type Target, target } from "./bench-scale-types";

/** The parts in the order they run: module and export name (the module is loaded when its part runs). */
const PARTS: Record<string, { module: string; exported: string }> = {
  scheduler: { module: "./bench-scale-scheduler", exported: "schedulerScalePart" },
  imap: { module: "./bench-scale-imap", exported: "imapScalePart" },
  leads: { module: "./bench-scale-leads", exported: "leadsScalePart" },
  analytics: { module: "./bench-scale-analytics", exported: "analyticsScalePart" },
  delete: { module: "./bench-scale-delete", exported: "deleteScalePart" },
};

/** The whole judged run: seeding included, on the 2-core machine. */
const RUN_LIMIT_MIN = 45;
const DISK_LIMIT_GB = 40;

function numberEnv(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return process.env[name] && Number.isFinite(n) && n > 0 ? n : fallback;
}

const SCALE = numberEnv("BENCH_SCALE", 1);
const RUNS = Math.floor(numberEnv("BENCH_RUNS", 3));
const CHOSEN = (process.env.BENCH_SCALE_PARTS ?? Object.keys(PARTS).join(","))
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);

/** The most disk the run took: free space of the temporary folder's file system, sampled every 2 s. */
function diskMeter(): { stop: () => number } {
  const free = () => {
    const s = statfsSync(tmpdir());
    return s.bavail * s.bsize;
  };
  const start = free();
  let least = start;
  const timer = setInterval(() => {
    least = Math.min(least, free());
  }, 2000);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(0, start - Math.min(least, free()));
    },
  };
}

const cell = (v: string | number) => (typeof v === "number" ? (Number.isInteger(v) ? v.toLocaleString("en-US") : v.toFixed(3)) : v);

function printCurve(c: Curve): void {
  say(`\n${c.title}`);
  say(
    table(
      c.columns,
      c.rows.map((r) => r.map(cell)),
    ),
  );
}

function targetRow(t: Target): string[] {
  const f = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(3));
  return [
    t.name,
    `${f(t.median)} ${t.unit}`,
    `${f(t.min)}–${f(t.max)} (${t.runs.length} runs)`,
    `${t.cmp} ${t.limit} ${t.unit}`,
    t.pass ? "PASS" : "BELOW TARGET",
  ];
}

async function runPart(name: string): Promise<PartResult> {
  const spec = PARTS[name];
  if (!spec) throw new Error(`unknown part "${name}" (BENCH_SCALE_PARTS takes ${Object.keys(PARTS).join(", ")})`);
  const mod = (await import(spec.module)) as Record<string, Part>;
  const part = mod[spec.exported];
  if (typeof part !== "function") throw new Error(`${spec.module} exports no ${spec.exported}`);
  const started = Date.now();
  const result = await part({ scale: SCALE, runs: RUNS, log: (line) => say(`  [${name}] ${line}`) });
  say(`  [${name}] done in ${((Date.now() - started) / 60_000).toFixed(1)} min (load average ${loadAverage()})`);
  return result;
}

async function main() {
  say(`bench:scale — parts ${CHOSEN.join(", ")}; sizes × ${SCALE}; ${RUNS} runs per judged figure; load average ${loadAverage()}`);
  const started = Date.now();
  const disk = diskMeter();
  const results: PartResult[] = [];
  for (const name of CHOSEN) {
    say(`\n== ${name} ==`);
    results.push(await runPart(name));
  }
  const minutes = (Date.now() - started) / 60_000;
  const diskGb = disk.stop() / 1e9;

  for (const r of results) for (const c of r.curves) printCurve(c);
  const targets = results.flatMap((r) => r.targets.map((t) => ({ ...t, name: `${r.part}: ${t.name}` })));
  const judgedWhole = SCALE === 1 && CHOSEN.length === Object.keys(PARTS).length;
  // Measured once per run of the whole bench, so the "median" of each is its one value.
  if (judgedWhole)
    targets.push(target("whole run", "min", "<=", RUN_LIMIT_MIN, [minutes]), target("disk taken", "GB", "<=", DISK_LIMIT_GB, [diskGb]));
  say("\nTargets");
  say(table(["figure", "median", "runs", "target", "result"], targets.map(targetRow)));
  const checks: Check[] = results.flatMap((r) => r.checks.map((c) => ({ ...c, name: `${r.part}: ${c.name}` })));
  say("\nSelf-checks");
  say(
    table(
      ["check", "result", "detail"],
      checks.map((c) => [c.name, c.ok ? "ok" : "FAILED", c.detail ?? ""]),
    ),
  );
  say(`\n${minutes.toFixed(1)} min, at most ${diskGb.toFixed(1)} GB of disk; load average at the end ${loadAverage()}`);
  if (!judgedWhole)
    say(
      `(a quick or partial run: the whole-run limits of ${RUN_LIMIT_MIN} min and ${DISK_LIMIT_GB} GB are judged at BENCH_SCALE=1 with every part)`,
    );
  const pass = targets.every((t) => t.pass) && checks.every((c) => c.ok);
  const json = { bench: "scale", scale: SCALE, runs: RUNS, parts: results, minutes, diskGb, pass };
  say(JSON.stringify(json));
  // A failed self-check means a wrong answer, not a slow one: the run fails.
  const failed = checks.filter((c) => !c.ok);
  if (failed.length) throw new Error(`${failed.length} self-check(s) failed: ${failed.map((c) => c.name).join("; ")}`);
}

runBench("bench:scale", main);
