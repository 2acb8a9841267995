/**
 * `npm run bench:engagement`: how well tracking hits are told apart, and what telling them apart costs.
 *
 *  1. The classifier (lib/analytics/engagement.ts) over the labelled corpus
 *     (test/fixtures/engagement-corpus.json, 449 hits of people, Apple's prefetch and security scanners,
 *     built by scripts/engagement-corpus.ts): precision and recall of the "person" class (what every
 *     open and click count counts), the confusion table, and the hits it gets wrong. Target: both ≥ 0.95.
 *  2. The production fast path with classification on, ÷ a bare node:http server answering the same
 *     bytes: scripts/bench-tracking.ts with BENCH_SIDES=fast and BENCH_AGENTS=mixed (the corpus's user
 *     agents, round-robin), each phase ending when its hits are written and settled (classified, first
 *     counted open/click and events written). Target ≥ 0.25. Its environment knobs apply (BENCH_RUNS…).
 * Prints tables and a final JSON line per part; exits 0.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import corpus from "../test/fixtures/engagement-corpus.json";
import { type LabelledHit, scoreCorpus } from "../test/engagement-eval";
import { fmt, say, table } from "./bench-util";

const TARGET = 0.95;

function classification(): void {
  const s = scoreCorpus(corpus as LabelledHit[]);
  say(`bench:engagement — the classifier over ${fmt(s.hits)} labelled hits`);
  say("");
  const classes = ["human", "unknown", "proxy", "scanner"] as const;
  say(
    table(
      ["label \\ got", ...classes],
      Object.entries(s.confusion).map(([label, row]) => [label, ...classes.map((c) => fmt(row[c]))]),
    ),
  );
  say("");
  say(
    table(
      ["rule", "hits"],
      Object.entries(s.byReason)
        .sort((a, b) => b[1] - a[1])
        .map(([r, n]) => [r, fmt(n)]),
    ),
  );
  say("");
  for (const w of s.wrong) say(`  wrong: ${w.hit.id} ${w.hit.label} → ${w.got} (${w.reason}): ${w.hit.scenario}`);
  say("");
  const verdict = (x: number) => (x >= TARGET ? "ok" : "BELOW TARGET");
  say(
    table(
      ["person class", "value", "target", ""],
      [
        ["precision", s.precision.toFixed(3), `≥ ${TARGET}`, verdict(s.precision)],
        ["recall", s.recall.toFixed(3), `≥ ${TARGET}`, verdict(s.recall)],
      ],
    ),
  );
  say(JSON.stringify({ bench: "engagement", hits: s.hits, precision: s.precision, recall: s.recall, wrong: s.wrong.length }));
  say("");
}

classification();
const run = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), path.join("scripts", "bench-tracking.ts")], {
  stdio: "inherit",
  env: { ...process.env, BENCH_SIDES: "fast", BENCH_AGENTS: "mixed" },
});
process.exit(run.status ?? 1);
