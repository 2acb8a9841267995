/**
 * bench:scale, the scheduler: the send scheduler's tick (scheduleDue over every mailbox, as a worker's
 * pass) as a curve over 5,000, 20,000 and 50,000 mailboxes. Each size is a world of its own (a database
 * of its own, dropped after): N mailboxes, one campaign per 500 of them (window 9–17 Mon–Fri in the
 * lead's zone, minGapMinutes 9), 20 leads per mailbox in 24 timezones and five days of history (8
 * campaign emails a day per mailbox), seeded with generate_series (scripts/bench-tick-world.ts, shared
 * with bench:send's part 2). Clock: a Tuesday 14:00 UTC, 8 of the 24 zones in their window; leads
 * outside it wait for its opening (the engine's nextWindowOpen), so every mailbox has due work.
 *
 * Two phases per size, opts.runs judged ticks each after a cold one (not judged):
 *  - start of window: nothing sent today; before each tick the world is reset and VACUUM ANALYZEd;
 *  - mid-day: 5 emails per mailbox already sent today (9:00–13:00), ticks back to back with no VACUUM or
 *    ANALYZE between them; between ticks only what the sender would do (SENDING → SENT, leases off) and
 *    the clock moves on by the gap plus a minute, so the emails of the ticks before count as today's.
 * Self-check after every tick: every mailbox claimed, and each claimed mailbox has exactly one email of
 * the tick (counted in the emails table), the ones the tick returned.
 *
 * Judged: the mid-day tick at the largest size ≤ 2.5 s, and the cost per mailbox at the largest size ≤
 * 1.2× the cost per mailbox at the smallest (each run of the largest ÷ the median of the smallest), both
 * phases. BENCH_SCALE multiplies the sizes (0.1: 500, 2,000, 5,000).
 *
 * Standalone: `npm run bench:scale:scheduler` (BENCH_SCALE, BENCH_RUNS; BENCH_PROFILE=1 prints the
 * slowest statement kinds by server time per size and phase; BENCH_EXPLAIN=1 writes the plans of
 * statements over 20 ms, auto_explain with ANALYZE, to bench-scale-scheduler-explain.log in the temp folder).
 */
import { appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { Db } from "../db/client";
import type { Curve, Part, PartOptions, PartResult, Target } from "./bench-scale-types";
import { scaled, target } from "./bench-scale-types";
import {
  afterMidDayTick,
  cpuSince,
  insertTodayEmails,
  processCpu,
  resetTickWorld,
  seedTickWorld,
  TICK_AT,
  type ZoneOpens,
  ZONES,
} from "./bench-tick-world";
import {
  benchWorkspace,
  ensureDatabase,
  elapsedMs,
  fmt,
  loadAverage,
  median,
  runBench,
  StatementLog,
  say,
  startBenchEnvironment,
  table,
} from "./bench-util";

const SIZES = [5000, 20_000, 50_000];
const LEADS_PER_MAILBOX = 20;
const MAILBOXES_PER_CAMPAIGN = 500;
const GAP_MIN = 9;
const HISTORY_PER_MAILBOX = 40;
const TODAY_PER_MAILBOX = 5;
const TARGET_MID_DAY_S = 2.5;
const TARGET_PER_MAILBOX_RATIO = 1.2;
const PROFILE = process.env.BENCH_PROFILE === "1";
const EXPLAIN = process.env.BENCH_EXPLAIN === "1";
const EXPLAIN_FILE = path.join(tmpdir(), "bench-scale-scheduler-explain.log");

type Phase = "start" | "mid-day";
const PHASE_TITLE: Record<Phase, string> = {
  start: "start of window (nothing sent today, VACUUM ANALYZE before each tick)",
  "mid-day": `mid-day (${TODAY_PER_MAILBOX} sent today per mailbox, ticks back to back, no VACUUM)`,
};

interface TickRun {
  ms: number;
  postgresCpuMs: number;
  selfCpuMs: number;
}

interface SizeResult {
  mailboxes: number;
  seedMs: number;
  runs: Record<Phase, TickRun[]>;
  cold: Record<Phase, number>;
}

type Engine = Awaited<ReturnType<typeof loadEngine>>;

async function loadEngine() {
  const { ManualClock } = await import("../lib/clock");
  const { scheduleDue } = await import("../lib/sending/engine");
  const { nextWindowOpen } = await import("../lib/sending/window");
  const { encryptSecret } = await import("../lib/crypto/secretbox");
  const { ensureDomain } = await import("../lib/domains/ensure-domain");
  const schema = await import("../db/schema");
  const { eq } = await import("drizzle-orm");
  return { ManualClock, scheduleDue, nextWindowOpen, encryptSecret, ensureDomain, schema, eq };
}

/** One size's world, seeded into a database of its own; returns the workspace and each zone's next_send_at. */
async function seedSize(e: Engine, db: Db, pg: postgres.Sql, n: number): Promise<{ ws: string; opens: ZoneOpens }> {
  const { workspaceId: ws } = await benchWorkspace(db, `Scale ${n}`, { email: `scale${n}@example.com`, name: "Scale" });
  const domainId = await e.ensureDomain(db, ws, "tick.bench.test");
  await seedTickWorld(pg, {
    workspaceId: ws,
    domainId,
    passwordEnc: e.encryptSecret("sink-password-1"),
    host: "127.0.0.1",
    port: 2525,
    mailboxes: n,
    leads: n * LEADS_PER_MAILBOX,
    campaigns: campaignsOf(n),
    gapMinutes: GAP_MIN,
    historyPerMailbox: HISTORY_PER_MAILBOX,
  });
  const [c0] = await db.select().from(e.schema.campaigns).where(e.eq(e.schema.campaigns.id, "cmp_tick_0"));
  const opens = ZONES.map((zone) => {
    const at = e.nextWindowOpen(c0, zone, TICK_AT);
    return { zone, at: at && at.getTime() !== TICK_AT.getTime() ? at.toISOString() : null };
  });
  return { ws, opens };
}

const campaignsOf = (n: number) => Math.max(1, Math.round(n / MAILBOXES_PER_CAMPAIGN));

/**
 * One tick over every mailbox, timed, with the CPU of this process and of Postgres, then checked: all
 * `n` claimed, one email each, exactly the emails the tick returned.
 */
async function tick(e: Engine, db: Db, pg: postgres.Sql, ws: string, clock: InstanceType<Engine["ManualClock"]>, n: number) {
  const cpu0 = processCpu();
  const start = process.hrtime.bigint();
  const planned = await e.scheduleDue(db, clock, { mailboxLimit: n });
  const ms = elapsedMs(start);
  const cpu = cpuSince(cpu0, processCpu());
  const problems: string[] = [];
  if (planned.claimed !== n) problems.push(`claimed ${planned.claimed} of ${n}`);
  const rows = await pg<{ mailboxId: string; n: number; ids: string[] }[]>`
    select mailbox_id as "mailboxId", count(*)::int as n, array_agg(id) as ids from emails
    where workspace_id = ${ws} and created_at = ${clock.now().toISOString()}::timestamptz group by mailbox_id`;
  const twice = rows.filter((r) => r.n !== 1).length;
  if (twice) problems.push(`${twice} mailboxes with more than one email of the tick`);
  if (rows.length !== n) problems.push(`${rows.length} mailboxes sent, ${n} claimed`);
  const returned = new Map(planned.work.map((w) => [w.mailbox.id, w.emailId]));
  const strays = rows.filter((r) => returned.get(r.mailboxId) !== r.ids[0]).length;
  if (strays || returned.size !== planned.work.length) problems.push(`${strays} emails not the ones the tick returned`);
  return { run: { ms, postgresCpuMs: cpu.postgres, selfCpuMs: cpu.self }, problems };
}

/** Both phases of one size: a cold tick, then `runs` judged ones each. */
async function measureSize(e: Engine, adminUrl: string, urlOf: (db: string) => string, n: number, o: PartOptions, log: StatementLog) {
  const name = `bench_scale_sched_${n}`;
  await ensureDatabase(adminUrl, name);
  const url = urlOf(name);
  const dbm = await import("../db/client");
  await dbm.runMigrations(url);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  if (PROFILE) await admin.unsafe(`alter database "${name}" set log_min_duration_statement = 0`);
  if (EXPLAIN)
    await admin.unsafe(`alter database "${name}" set session_preload_libraries = 'auto_explain';
      alter database "${name}" set auto_explain.log_min_duration = '20ms'; alter database "${name}" set auto_explain.log_analyze = on`);
  const db = dbm.createDb(url);
  const pg = postgres(url, { max: 1, onnotice: () => {} });
  const problems: string[] = [];
  try {
    const t0 = process.hrtime.bigint();
    const { ws, opens } = await seedSize(e, db, pg, n);
    const seedMs = elapsedMs(t0);
    o.log(
      `  ${fmt(n)} mailboxes: seeded ${fmt(n * LEADS_PER_MAILBOX)} leads, ${fmt(n * HISTORY_PER_MAILBOX)} emails in ${fmt(seedMs / 1000, 1)} s`,
    );
    const clock = new e.ManualClock(TICK_AT);
    const result: SizeResult = { mailboxes: n, seedMs, runs: { start: [], "mid-day": [] }, cold: { start: NaN, "mid-day": NaN } };
    const one = async (phase: Phase, judged: number | null) => {
      log.step = `${fmt(n)} ${phase}`;
      log.enabled = PROFILE && judged !== null;
      const { run, problems: p } = await tick(e, db, pg, ws, clock, n);
      log.enabled = false;
      problems.push(...p.map((x) => `${fmt(n)} ${phase}: ${x}`));
      if (judged === null) result.cold[phase] = run.ms;
      else result.runs[phase].push(run);
      const label = judged === null ? "cold" : `run ${judged + 1}/${o.runs}`;
      o.log(
        `    ${phase} ${label}: ${fmt(run.ms / 1000, 2)} s; CPU Postgres ${fmt(run.postgresCpuMs)} ms, this process ${fmt(run.selfCpuMs)} ms; load ${loadAverage()}${p.length ? ` — ${p.join("; ")}` : ""}`,
      );
    };
    await resetTickWorld(pg, ws, opens);
    await one("start", null);
    for (let i = 0; i < o.runs; i++) {
      await resetTickWorld(pg, ws, opens);
      await one("start", i);
    }
    await resetTickWorld(pg, ws, opens);
    await insertTodayEmails(pg, { workspaceId: ws, mailboxes: n, campaigns: campaignsOf(n) }, TODAY_PER_MAILBOX);
    await one("mid-day", null);
    for (let i = 0; i < o.runs; i++) {
      await afterMidDayTick(pg, ws);
      clock.advance((GAP_MIN + 1) * 60_000);
      await one("mid-day", i);
    }
    return { result, problems };
  } finally {
    await pg.end({ timeout: 5 }).catch(() => {});
    await db.$client.end({ timeout: 5 }).catch(() => {});
    await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end({ timeout: 5 }).catch(() => {});
  }
}

/** The sizes at this scale, distinct and increasing. */
function sizesAt(scale: number): number[] {
  const out: number[] = [];
  for (const s of SIZES) out.push(Math.max(scaled(s, scale, 50), (out.at(-1) ?? 0) + 1));
  return out;
}

const perThousand = (ms: number, n: number) => (ms * 1000) / n;

function curveOf(phase: Phase, sizes: SizeResult[]): Curve {
  return {
    title: `Scheduler tick, ${PHASE_TITLE[phase]}: median of the runs`,
    columns: ["mailboxes", "leads", "tick s", "runs s", "ms per 1,000 mailboxes", "Postgres CPU ms", "this process CPU ms", "cold tick s"],
    rows: sizes.map((s) => {
      const runs = s.runs[phase];
      const ms = median(runs.map((r) => r.ms));
      return [
        s.mailboxes,
        s.mailboxes * LEADS_PER_MAILBOX,
        Math.round(ms) / 1000,
        runs.map((r) => fmt(r.ms / 1000, 2)).join(", "),
        Math.round(perThousand(ms, s.mailboxes)),
        Math.round(median(runs.map((r) => r.postgresCpuMs))),
        Math.round(median(runs.map((r) => r.selfCpuMs))),
        Math.round(s.cold[phase]) / 1000,
      ];
    }),
  };
}

function targetsOf(sizes: SizeResult[]): Target[] {
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  const at = fmt(large.mailboxes);
  const targets = [
    target(
      `mid-day tick at ${at} mailboxes`,
      "s",
      "<=",
      TARGET_MID_DAY_S,
      large.runs["mid-day"].map((r) => r.ms / 1000),
    ),
  ];
  for (const phase of ["mid-day", "start"] as const) {
    const base = median(small.runs[phase].map((r) => perThousand(r.ms, small.mailboxes)));
    targets.push(
      target(
        `${phase} cost per mailbox, ${at} ÷ ${fmt(small.mailboxes)}`,
        "×",
        "<=",
        TARGET_PER_MAILBOX_RATIO,
        large.runs[phase].map((r) => Math.round((perThousand(r.ms, large.mailboxes) / base) * 1000) / 1000),
      ),
    );
  }
  return targets;
}

/** The part: every size in turn on a throwaway embedded PostgreSQL of its own. */
export const schedulerScalePart: Part = async (opts) => {
  const log = new StatementLog(false, 110);
  const onServerLog = (line: string) => {
    if (EXPLAIN && /plan:|->|Query Text|duration/.test(line)) appendFileSync(EXPLAIN_FILE, line + "\n");
    log.onServerLog(line);
  };
  const bench = await startBenchEnvironment("bench:scale scheduler", { onServerLog, env: { RATE_LIMIT_DISABLED: "1" } });
  try {
    const e = await loadEngine();
    const sizes: SizeResult[] = [];
    const problems: string[] = [];
    for (const n of sizesAt(opts.scale)) {
      opts.log(`scheduler: ${fmt(n)} mailboxes, ${fmt(campaignsOf(n))} campaigns…`);
      const r = await measureSize(e, bench.adminUrl, (name) => bench.pg.server.url(name), n, opts, log);
      sizes.push(r.result);
      problems.push(...r.problems);
      if (PROFILE)
        for (const phase of ["start", "mid-day"] as const)
          log.print(`${fmt(n)} ${phase}`, { n: n * opts.runs, of: "mailboxes ticked", each: "mailbox", unit: "µs" }, 12);
    }
    const result: PartResult = {
      part: "scheduler",
      curves: [curveOf("start", sizes), curveOf("mid-day", sizes)],
      targets: targetsOf(sizes),
      checks: [
        {
          name: "every claimed mailbox sent exactly once per tick (emails counted per mailbox), all mailboxes claimed",
          ok: problems.length === 0,
          detail: problems.length ? problems.slice(0, 5).join("; ") : `${sizes.length * 2 * (opts.runs + 1)} ticks checked`,
        },
      ],
      figures: { seedSeconds: sizes.map((s) => Math.round(s.seedMs / 100) / 10), campaigns: sizes.map((s) => campaignsOf(s.mailboxes)) },
    };
    return result;
  } finally {
    await bench.close();
  }
};

/** `npm run bench:scale:scheduler`: this part alone, printed as the runner prints it. */
async function main() {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const t0 = process.hrtime.bigint();
  const r = await schedulerScalePart({ scale: scale > 0 ? scale : 1, runs: runs > 0 ? Math.floor(runs) : 3, log: say });
  for (const c of r.curves)
    say(
      `\n${c.title}\n${table(
        c.columns,
        c.rows.map((row) => row.map((x) => (typeof x === "number" ? fmt(x, Number.isInteger(x) ? 0 : 2) : x))),
      )}`,
    );
  say(
    `\n${table(
      ["judged", "median", "runs", "target", "result"],
      r.targets.map((t) => [
        t.name,
        `${fmt(t.median, 3)} ${t.unit}`,
        t.runs.map((x) => fmt(x, 3)).join(", "),
        `${t.cmp} ${t.limit}`,
        t.pass ? "PASS" : "BELOW TARGET",
      ]),
    )}`,
  );
  for (const c of r.checks) say(`check: ${c.ok ? "OK" : "FAILED"} — ${c.name}${c.detail ? ` (${c.detail})` : ""}`);
  say(`\ntotal time ${fmt(elapsedMs(t0) / 1000, 1)} s; the machine is shared with other work (load average in the runs' lines)`);
  say(JSON.stringify(r));
}

if (process.argv[1] && path.basename(process.argv[1]) === "bench-scale-scheduler.ts") runBench("bench:scale:scheduler", main);
