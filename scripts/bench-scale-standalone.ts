/**
 * One bench:scale part on its own (npm run bench:scale:leads, bench:scale:analytics): BENCH_SCALE
 * (default 1) and BENCH_RUNS (default 3) as the runner reads them, the part's curves, targets and
 * checks printed as tables, and its result as one final JSON line. Exits 0 whatever the verdicts, 1
 * when the part throws.
 */
import type { Part } from "./bench-scale-types";
import { fmt, JUDGED_RUNS, runBench, say, table } from "./bench-util";

const num = (v: string | number) => (typeof v === "number" ? fmt(v, Number.isInteger(v) ? 0 : v < 10 ? 3 : 1) : v);

export function runPartStandalone(name: string, part: Part): void {
  const raw = Number(process.env.BENCH_SCALE);
  const scale = Number.isFinite(raw) && raw > 0 ? raw : 1;
  runBench(name, async () => {
    const t0 = Date.now();
    const r = await part({ scale, runs: JUDGED_RUNS, log: (line) => say(`  ${line}`) });
    for (const c of r.curves) {
      say(`\n${c.title}`);
      say(
        table(
          c.columns,
          c.rows.map((row) => row.map(num)),
        ),
      );
    }
    say("");
    say(
      table(
        ["target", "median", "runs", "limit", "result"],
        r.targets.map((t) => [
          t.name,
          `${num(t.median)} ${t.unit}`,
          t.runs.map(num).join(", "),
          `${t.cmp} ${t.limit}`,
          t.pass ? "PASS" : "BELOW TARGET",
        ]),
      ),
    );
    say("");
    for (const c of r.checks) say(`${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? ` (${c.detail})` : ""}`);
    say(`\n${name}: scale ${scale}, ${fmt((Date.now() - t0) / 1000, 1)} s`);
    say(JSON.stringify(r));
  });
}

/** True when `moduleUrl` (import.meta.url) is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const arg = process.argv[1];
  return !!arg && moduleUrl.endsWith(arg.replace(/^.*\/scripts\//, "/scripts/"));
}
