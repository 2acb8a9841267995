/**
 * `npm run bench:leads`: throughput of the leads API against the database's own ceiling.
 *
 *  1. POST /leads, 1,000 leads per call with 10% already in the workspace (merged, one field changed),
 *     through the real route handler, vs COPY FROM STDIN of the same rows into the same `leads`
 *     table (another workspace of the same database: same indexes, same table size). Target ≥ 0.6.
 *  2. GET /leads (page of 50, workspace of 10,000 leads, 8 requests in flight) with the rate limiter
 *     on (limit raised to 1e9/min) vs off (RATE_LIMIT_DISABLED=1), alternating phases. Target ≥ 0.97.
 *
 * Each judged ratio runs three times (BENCH_RUNS) and the script reports the median, the spread and
 * the machine's load average (bench-util's judge): a POST run is BENCH_ROUNDS rounds per side, a GET
 * run one ABBA block.
 *
 * Starts its own throwaway embedded PostgreSQL, so it needs no running app or database.
 * Prints a table, PASS / BELOW TARGET per ratio, and a final JSON line; exits 0 either way.
 *
 * GET phases run in ABBA blocks (on, off, off, on / off, on, on, off …) so that a drift in machine
 * speed cancels within each block; a run's ratio is its block's (on req/s ÷ off req/s).
 *
 * POST runs after BENCH_WARM_ROUNDS untimed rounds per side (default 4, one run's worth): a server that
 * has taken imports for a while has the handler's code compiled by V8's optimiser. With one warm-up
 * round the first judged run still paid for that (rounds of 84–118 ms against 62–71 ms in the runs
 * after it, 28 Nov), and COPY has no such code to warm.
 *
 * Knobs (env): BENCH_ROUNDS (POST rounds per side per run, default 4), BENCH_WARM_ROUNDS (default 4;
 * 0: none), BENCH_RUNS (default 3),
 * BENCH_CPU_PROFILE=1 (V8 CPU profile of the POST calls and the GET phases, µs per call by function), BENCH_PHASE_MS (GET phase length, default 2000), BENCH_CONCURRENCY (GET requests in flight, default 8), BENCH_GET_LEADS (default
 * 10000), BENCH_PROFILE=1 (log every statement's server time and print the slowest kinds per step).
 */
import {
  abbaPlan,
  benchWorkspace,
  CpuProfiler,
  copyLeads,
  elapsedMs,
  fmt,
  fullApiKey,
  intEnv,
  JUDGED_RUNS,
  judge,
  judgedJson,
  median,
  percentile,
  pooledRate,
  printJudged,
  round3,
  runBench,
  say,
  sleep,
  startBenchEnvironment,
  StatementLog,
  table,
} from "./bench-util";
import { BATCH, batch, EXISTING_PER_BATCH, leadInput, type LeadInputLike, seedEmail, toCopy as toCopyRow } from "./bench-leads-rows";

const ROUNDS = intEnv("BENCH_ROUNDS", 4);
const WARM_ROUNDS = intEnv("BENCH_WARM_ROUNDS", 4, true);
const GET_LEADS = intEnv("BENCH_GET_LEADS", 10_000);
const GET_LIMIT = 50;
const GET_PAGES = 5; // requests cycle through pages 1..5
const CONCURRENCY = intEnv("BENCH_CONCURRENCY", 8);
const PHASE_MS = intEnv("BENCH_PHASE_MS", 2000);
const WARMUP_PHASES: ("on" | "off")[] = ["on", "off", "on", "off"];
const WARMUP_PHASE_MS = 1000;
const PROFILE = process.env.BENCH_PROFILE === "1";
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE === "1";
const POST_TARGET = 0.6;
const GET_TARGET = 0.97;
const RAISED_LIMIT = "1000000000";

// ---------------------------------------------------------------------------------------------
// Statement profile (BENCH_PROFILE=1): server time per statement kind, per step.

const statements = new StatementLog(PROFILE, 110);
const printProfile = (step: string, calls: number) => statements.print(step, { n: calls, of: "calls", each: "call", unit: "ms" }, 12);
const cpuProfile = new CpuProfiler(CPU_PROFILE, ["POST", "GET on", "GET off"] as const);

// ---------------------------------------------------------------------------------------------

async function main() {
  const bench = await startBenchEnvironment("bench:leads", {
    onServerLog: statements.onServerLog,
    logStatements: PROFILE,
    env: { RATE_LIMIT_API_KEY: RAISED_LIMIT, RATE_LIMIT_DISABLED: undefined },
    sqlNoDelay: true, // the COPY baseline: see noDelaySocket
  });
  try {
    const { newId } = await import("@/lib/ids");
    const route = await import("@/app/api/v1/leads/route");
    const db = bench.dbm.getDb();
    const copySql = bench.sql;

    const wsApi = await benchWorkspace(db, "POST via API");
    const wsCopy = await benchWorkspace(db, "POST via COPY");
    const wsGet = await benchWorkspace(db, "GET");
    const keyApi = await fullApiKey(db, wsApi);
    const keyGet = await fullApiKey(db, wsGet);

    const toCopy = (workspaceId: string, l: LeadInputLike, now: Date) => toCopyRow(newId, workspaceId, l, now);

    // --- Seed: the API workspace gets the addresses the batches will merge into; the COPY workspace
    // gets as many other rows, so both workspaces are the same size all along. ---
    const totalRounds = JUDGED_RUNS * ROUNDS + WARM_ROUNDS;
    const seedCount = totalRounds * EXISTING_PER_BATCH;
    const seedNow = new Date();
    await copyLeads(
      copySql,
      Array.from({ length: seedCount }, (_, k) => toCopy(wsApi.workspaceId, leadInput(seedEmail(k), k, "Seed"), seedNow)),
    );
    await copyLeads(
      copySql,
      Array.from({ length: seedCount }, (_, k) =>
        toCopy(wsCopy.workspaceId, leadInput(`filler-${k}@co${k % 97}.example.com`, k, "Seed"), seedNow),
      ),
    );
    await copySql`analyze leads`;

    // --- 1. POST /leads vs COPY ---
    say(
      `\n[1/2] POST /leads: ${JUDGED_RUNS} runs of ${ROUNDS} rounds (after ${WARM_ROUNDS} warm-up rounds) of ${fmt(BATCH)} leads (${EXISTING_PER_BATCH} existing) per side…`,
    );
    const apiRates: number[] = [];
    const copyRates: number[] = [];
    const apiMs: number[] = [];
    const copyMs: number[] = [];

    const runApi = async (round: number, body: string) => {
      const warm = round < WARM_ROUNDS;
      statements.step = warm ? "warmup" : "POST /leads";
      if (!warm) await cpuProfile.start();
      const start = process.hrtime.bigint();
      const res = await route.POST(
        new Request("http://localhost/api/v1/leads", {
          method: "POST",
          headers: { authorization: `Bearer ${keyApi}`, "content-type": "application/json" },
          body,
        }),
      );
      const text = await res.text();
      const ms = elapsedMs(start);
      if (!warm) await cpuProfile.stop("POST", 1);
      if (res.status !== 200) throw new Error(`POST /leads answered ${res.status}: ${text.slice(0, 500)}`);
      const r = JSON.parse(text) as { created: number; updated: number; invalid: number; suppressed: number };
      if (r.created !== BATCH - EXISTING_PER_BATCH || r.updated !== EXISTING_PER_BATCH || r.invalid || r.suppressed) {
        throw new Error(`POST /leads round ${round}: unexpected counts ${JSON.stringify({ ...r, leads: undefined })}`);
      }
      return ms;
    };
    const runCopy = async (round: number, leads: LeadInputLike[]) => {
      statements.step = round < WARM_ROUNDS ? "warmup" : "COPY";
      const start = process.hrtime.bigint();
      const now = new Date();
      await copyLeads(
        copySql,
        leads.map((l) => toCopy(wsCopy.workspaceId, l, now)),
      );
      return elapsedMs(start);
    };

    const runRound = async (round: number): Promise<{ a: number; c: number }> => {
      const leads = batch(round);
      const body = JSON.stringify({ leads }); // the client's work, not timed
      if (round % 2 === 0) {
        const a = await runApi(round, body);
        return { a, c: await runCopy(round, leads) };
      }
      const c = await runCopy(round, leads);
      return { a: await runApi(round, body), c };
    };
    const warm: { a: number; c: number }[] = [];
    for (let r = 0; r < WARM_ROUNDS; r++) warm.push(await runRound(r));
    if (warm.length)
      say(`  warm-up: API ${warm.map((w) => fmt(w.a, 1)).join(", ")} ms; COPY ${warm.map((w) => fmt(w.c, 1)).join(", ")} ms`);
    let round = WARM_ROUNDS;
    const postJudged = await judge("POST /leads ÷ COPY", async () => {
      const api: number[] = [];
      const copy: number[] = [];
      for (let i = 0; i < ROUNDS; i++, round++) {
        const { a, c } = await runRound(round);
        api.push((BATCH * 1000) / a);
        copy.push((BATCH * 1000) / c);
        apiMs.push(a);
        copyMs.push(c);
        apiRates.push((BATCH * 1000) / a);
        copyRates.push((BATCH * 1000) / c);
        say(
          `    round ${String(round - WARM_ROUNDS + 1).padStart(2)}: API ${fmt(a, 1).padStart(7)} ms (${fmt((BATCH * 1000) / a).padStart(7)} leads/s)   COPY ${fmt(c, 1).padStart(6)} ms (${fmt((BATCH * 1000) / c).padStart(7)} leads/s)`,
        );
      }
      return median(api) / median(copy);
    });
    statements.step = "idle";
    const [{ a: countApi, c: countCopy }] = await copySql`
      select count(*) filter (where workspace_id = ${wsApi.workspaceId})::int as a,
             count(*) filter (where workspace_id = ${wsCopy.workspaceId})::int as c
      from leads`;
    const expected = seedCount + totalRounds * (BATCH - EXISTING_PER_BATCH);
    if (countApi !== expected) throw new Error(`API workspace holds ${countApi} leads, expected ${expected}`);
    say(`  rows: API workspace ${fmt(countApi)}, COPY workspace ${fmt(countCopy)} (COPY inserts the 10% merges as new rows)`);
    const postRatio = postJudged.median;

    // --- 2. GET /leads, limiter on vs off ---
    say(
      `\n[2/2] GET /leads: ${fmt(GET_LEADS)} leads, page of ${GET_LIMIT} (pages 1–${GET_PAGES}), ${CONCURRENCY} in flight, ${JUDGED_RUNS} runs of one ABBA block of ${PHASE_MS} ms phases…`,
    );
    const getNow = new Date();
    for (let i = 0; i < GET_LEADS; i += 5000) {
      const n = Math.min(5000, GET_LEADS - i);
      await copyLeads(
        copySql,
        Array.from({ length: n }, (_, k) =>
          toCopy(wsGet.workspaceId, leadInput(`get-${i + k}@co${(i + k) % 97}.example.com`, i + k, "Engineer"), getNow),
        ),
      );
    }
    await copySql`vacuum analyze leads`;

    const setLimiter = (mode: "on" | "off") => {
      process.env.RATE_LIMIT_API_KEY = RAISED_LIMIT;
      if (mode === "off") process.env.RATE_LIMIT_DISABLED = "1";
      else delete process.env.RATE_LIMIT_DISABLED;
    };
    let seq = 0;
    const runPhase = async (mode: "on" | "off", ms: number, step: string) => {
      setLimiter(mode);
      statements.step = step;
      const lat: number[] = [];
      const profiled = step !== "warmup";
      if (profiled) await cpuProfile.start();
      const start = process.hrtime.bigint();
      const deadline = Date.now() + ms;
      const worker = async () => {
        while (Date.now() < deadline) {
          const page = (seq++ % GET_PAGES) + 1;
          const t = process.hrtime.bigint();
          const res = await route.GET(
            new Request(`http://localhost/api/v1/leads?page=${page}&limit=${GET_LIMIT}`, {
              headers: { authorization: `Bearer ${keyGet}` },
            }),
          );
          const text = await res.text();
          lat.push(elapsedMs(t));
          if (res.status !== 200) throw new Error(`GET /leads (${mode}) answered ${res.status}: ${text.slice(0, 500)}`);
          const limitHeader = res.headers.get("x-ratelimit-limit");
          if (mode === "on" ? limitHeader !== RAISED_LIMIT : limitHeader !== null) {
            throw new Error(`GET /leads (${mode}): X-RateLimit-Limit is ${limitHeader}; the limiter is not in the expected state`);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const total = elapsedMs(start);
      if (profiled) await cpuProfile.stop(mode === "on" ? "GET on" : "GET off", lat.length);
      statements.step = "idle";
      return { mode, n: lat.length, ms: total, rps: (lat.length * 1000) / total, p50: percentile(lat, 50), p95: percentile(lat, 95) };
    };

    // Check one page is what we think it is.
    {
      setLimiter("on");
      const res = await route.GET(
        new Request(`http://localhost/api/v1/leads?page=1&limit=${GET_LIMIT}`, { headers: { authorization: `Bearer ${keyGet}` } }),
      );
      const body = (await res.json()) as { leads: unknown[]; total: number };
      if (res.status !== 200 || body.leads.length !== GET_LIMIT || body.total !== GET_LEADS) {
        throw new Error(`GET /leads sanity check failed: ${res.status} ${body.leads?.length} of ${body.total}`);
      }
    }
    const warmGet: string[] = [];
    for (const mode of WARMUP_PHASES) {
      const w = await runPhase(mode, WARMUP_PHASE_MS, "warmup");
      warmGet.push(`${mode} ${fmt(w.rps)}`);
    }
    say(`  warm-up (req/s): ${warmGet.join(", ")}`);
    const phases: Awaited<ReturnType<typeof runPhase>>[] = [];
    const getJudged = await judge("GET limiter on ÷ off", async (b) => {
      const plan = abbaPlan(b, "on", "off");
      const block: typeof phases = [];
      for (const mode of plan) block.push(await runPhase(mode, PHASE_MS, `GET limiter ${mode}`));
      phases.push(...block);
      const rate = (mode: "on" | "off") => pooledRate(block.filter((p) => p.mode === mode));
      const p50 = (mode: "on" | "off") => fmt(median(block.filter((p) => p.mode === mode).map((p) => p.p50)), 1);
      say(
        `    ${block.map((p) => `${p.mode.padEnd(3)} ${fmt(p.rps).padStart(5)}`).join(" | ")} req/s  (p50 on ${p50("on")} ms, off ${p50("off")} ms)`,
      );
      return rate("on") / rate("off");
    });
    setLimiter("on");
    const on = phases.filter((p) => p.mode === "on");
    const off = phases.filter((p) => p.mode === "off");
    const getRatio = getJudged.median;

    // --- Summary ---
    say(
      `\nSummary (medians; ${apiMs.length} POST rounds per side; ${on.length}+${off.length} GET phases; each ratio the median of ${JUDGED_RUNS} runs)`,
    );
    say(
      table(
        ["measure", "value", "detail"],
        [
          ["POST /leads via handler", `${fmt(median(apiRates))} leads/s`, `${fmt(median(apiMs), 1)} ms per 1,000-lead call`],
          ["COPY FROM STDIN", `${fmt(median(copyRates))} leads/s`, `${fmt(median(copyMs), 1)} ms per 1,000 rows`],
          [
            "GET /leads, limiter on",
            `${fmt(median(on.map((p) => p.rps)))} req/s`,
            `p50 ${fmt(median(on.map((p) => p.p50)), 1)} ms, p95 ${fmt(median(on.map((p) => p.p95)), 1)} ms`,
          ],
          [
            "GET /leads, limiter off",
            `${fmt(median(off.map((p) => p.rps)))} req/s`,
            `p50 ${fmt(median(off.map((p) => p.p50)), 1)} ms, p95 ${fmt(median(off.map((p) => p.p95)), 1)} ms`,
          ],
        ],
      ),
    );
    say("");
    printJudged([
      { judged: postJudged, target: POST_TARGET },
      { judged: getJudged, target: GET_TARGET },
    ]);
    if (PROFILE) {
      say("\n(BENCH_PROFILE=1: every statement is logged, which slows the API side more than COPY; read the ratios above as pessimistic.)");
      await sleep(300); // let the last log lines arrive
      printProfile("POST /leads", apiMs.length);
      printProfile("COPY", copyMs.length);
      const nOn = on.reduce((a, p) => a + p.n, 0);
      const nOff = off.reduce((a, p) => a + p.n, 0);
      printProfile("GET limiter on", nOn);
      printProfile("GET limiter off", nOff);
    }
    say(`\ntotal time ${fmt(elapsedMs(bench.t0) / 1000, 1)} s`);
    cpuProfile.print(`CPU profile of this process (BENCH_CPU_PROFILE=1), µs per call; "(idle)" is time spent waiting:`, {
      functions: 30,
      digits: 0,
      rawFiles: "bench-leads",
    });
    say(
      JSON.stringify({
        postLeadsVsCopy: round3(postRatio),
        getLeadsLimiterOnVsOff: round3(getRatio),
        judged: { post: judgedJson(postJudged), get: judgedJson(getJudged) },
      }),
    );
  } finally {
    cpuProfile.disconnect();
    await bench.close();
  }
}

runBench("bench:leads", main);
