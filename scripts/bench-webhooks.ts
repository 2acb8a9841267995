import { systemCtx } from "../lib/ctx";
/**
 * `npm run bench:webhooks`: webhook deliveries per second through the real delivery job, against the
 * same work done with bare libraries (the judged baseline) and, as context, bare signed POSTs with no
 * database, all to the same local receiver. Target ≥ 0.5.
 *
 *  - Job:  N events sit in the outbox (emitted with emitEvent, one transaction per 100 events, before
 *          the clock starts: emitting belongs to the domain change that fires the event, not to the
 *          job). Timed: the job's own turn, webhookTurn (claims of due deliveries and dispatch of new
 *          events overlapping, as webhookDispatchJob runs them), called back to back (systemClock) until
 *          all N deliveries are DELIVERED — i.e. outbox rows → deliveries made with a lease (or claimed
 *          with one), sign, POST through safeRequest (SSRF guard, kept connections with TCP_NODELAY) with
 *          at most 10 in flight, the window kept full across batches, results recorded in group commits.
 *  - Bare store (judged): the same work the best way bare libraries can — the project's rule for
 *          baselines is "the same work with the best a bare library can do (kept connections,
 *          TCP_NODELAY, prepared data on both sides)". N events emitted the same way, then, timed:
 *          postgres.js (prepared statements, TCP_NODELAY) takes a batch out of the outbox and writes its
 *          deliveries in one statement (the envelope built in SQL; a first batch of 100, then 500, the
 *          next taken while fewer than 600 wait), node:http POSTs them signed (HMAC-SHA256 per request,
 *          the same six headers) with at most 10 in flight over kept connections with TCP_NODELAY, and
 *          the outcomes are written 250 a statement while sending goes on. The webhook (id, events,
 *          secret) is known ahead. No lease is claimed again, no rule read, no retry planned.
 *  - Bare POSTs (context, not judged): the same N bodies (the exact bytes the warm-up job phase
 *          delivered), signed the same way, POSTed with node:http.request at most 10 in flight over kept
 *          connections (an http.Agent with keepAlive, 10 sockets) and TCP_NODELAY. No database: the
 *          ceiling of the HTTP part alone. The same client with a fresh connection per request (agent:
 *          false, as the job's client did before it kept connections) is measured once per run as
 *          context too.
 *
 * The receiver is a node:http server on 127.0.0.1 answering 200 "ok" at once. By default it runs in
 * a child process (BENCH_RECEIVER=process), so its CPU is not spent on the thread being measured — a
 * real receiver is another machine; BENCH_RECEIVER=inline runs it in this process. Every phase is
 * checked afterwards (untimed): N requests on N connections, each event id once, each signature
 * verifies with the webhook's secret, and every delivery row ended DELIVERED.
 *
 * The loop runs the job's turn back to back, as webhookDispatchJob does with a backlog (for up to 5 s
 * per run, every WORKER_TICK_MS).
 *
 * The judged part runs three times (BENCH_RUNS): each run is one block (job, store, bare, bare, store,
 * job; reversed every other run) after a warm-up of each side, and gives (job deliveries/s ÷ bare store
 * deliveries/s), with job ÷ bare POSTs printed beside it; the script reports the median, the spread and
 * the machine's load average (bench-util's judge).
 *
 * Phases are 5,000 deliveries: the bare client does 7,000–11,600 POSTs/s on the 2-core development
 * machine, so 1,500 (the old default) was a phase of 0.13–0.2 s, and a ratio from such phases moved by
 * ±0.06–0.15 within one run and came out higher than longer phases gave (0.52–0.71 against 0.45–0.54 on
 * 27 Nov): the longer phase is the honest one.
 *
 * Knobs (env): BENCH_N (deliveries per phase, default 5000), BENCH_RUNS (runs of the judged part, default 3),
 * BENCH_RECEIVER (process | inline), BENCH_BARE (pool: a window of 10 in flight, default; batch: groups
 * of 10 awaited together), BENCH_PROFILE=1 (statement log + extra diagnostic
 * phases: safeRequest alone and attemptDelivery alone, without dispatch/claim), BENCH_CPU_PROFILE=1
 * (V8 CPU profile of the measured phases, summarised per side as µs of this process's CPU per delivery;
 * the raw .cpuprofile files are written to the temp folder), BENCH_PROCS=1 (Linux: CPU time per delivery of
 * this process, Postgres and the receiver, from /proc), BENCH_EXPLAIN=<ms> (auto_explain: the plans of
 * statements slower than that, with actual rows and timings, to bench-webhooks-plans.log in the temp folder).
 */
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import postgres from "postgres";
import { tmpdir } from "node:os";
import path from "node:path";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import {
  benchWorkspace,
  judge,
  judgedJson,
  printJudged,
  cpuMeter,
  CpuProfiler,
  elapsedMs,
  fmt,
  intEnv,
  median,
  noDelaySocket,
  pooledRate,
  round3,
  runBench,
  runPool,
  say,
  sleep,
  startBenchEnvironment,
  startIpcHelper,
  StatementLog,
  table,
} from "./bench-util";

const N = intEnv("BENCH_N", 5000);
const RECEIVER_MODE = process.env.BENCH_RECEIVER === "inline" ? "inline" : "process";
const BARE_MODE = process.env.BENCH_BARE === "batch" ? "batch" : "pool";
const PROFILE = process.env.BENCH_PROFILE === "1";
const CPU_PROFILE = process.env.BENCH_CPU_PROFILE === "1";
const IN_FLIGHT = 10; // deliverDue's window: at most 10 requests in flight
const EMIT_PER_TX = 100;
/**
 * The bare store's sizes, the job's own (turn.ts, window.ts): a first batch of 100 events (sending
 * starts sooner), then 500 a statement, the next asked for while fewer than 600 are waiting to be sent;
 * outcomes 250 a statement.
 */
const FIRST_BATCH = 100;
const DISPATCH_BATCH = 500;
const REFILL_BELOW = 600;
const OUTCOMES_PER_STATEMENT = 250;
const TARGET = 0.5;
const EVENT = "email.sent" as const;

// ---------------------------------------------------------------------------------------------
// Receiver: plain JS so it runs the same in a child process (node -e) or in this one.

interface Got {
  url: string;
  event: string;
  id: string;
  ts: string;
  sig: string;
  ct: string;
  ua: string;
  body: string;
}

const RECEIVER_JS = `
const http = require("node:http");
let reqs = [];
let connections = 0;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const h = req.headers;
    reqs.push({ url: req.url, event: h["x-service-event"], id: h["x-service-event-id"], ts: h["x-service-timestamp"], sig: h["x-service-signature"], ct: h["content-type"], ua: h["user-agent"], body: Buffer.concat(chunks).toString("utf8") });
    res.writeHead(200, { "content-type": "text/plain", "content-length": "2" });
    res.end("ok");
  });
});
server.on("connection", () => connections++);
server.listen(0, "127.0.0.1", () => ipc.send({ type: "ready", port: server.address().port }));
ipc.on("message", (m) => {
  if (m.type === "collect") {
    const out = reqs;
    reqs = [];
    const c = connections;
    connections = 0;
    ipc.send({ type: "collected", reqs: out, connections: c });
  } else if (m.type === "close") {
    server.closeAllConnections();
    server.close(() => ipc.send({ type: "closed" }));
  }
});
`;

interface Receiver {
  port: number;
  url: string;
  /** Everything received since the last collect, and the number of TCP connections. */
  collect(): Promise<{ reqs: Got[]; connections: number }>;
  close(): Promise<void>;
}

async function startReceiver(mode: "process" | "inline"): Promise<Receiver> {
  const helper = startIpcHelper("receiver", RECEIVER_JS, mode);
  const port = (await helper.next("ready")).port as number;
  return {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    async collect() {
      const p = helper.next("collected");
      helper.send({ type: "collect" });
      const m = await p;
      return { reqs: m.reqs as Got[], connections: m.connections as number };
    },
    close: () => helper.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Bare signed POSTs

interface BareItem {
  eventId: string;
  event: string;
  body: string;
}

/** The baseline's client: kept connections, at most one per request in flight, TCP_NODELAY. */
const keptAgent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT, noDelay: true } as http.AgentOptions);
/** The bare store's own connections (the same kind), so that neither side reuses the other's. */
const storeAgent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT, noDelay: true } as http.AgentOptions);

function bareSignedPost(port: number, secret: string, item: BareItem, agent: http.Agent | false = keptAgent): Promise<void> {
  const timestamp = Math.floor(Date.now() / 1000);
  const sig = createHmac("sha256", secret).update(`${timestamp}.${item.body}`).digest("hex");
  const body = Buffer.from(item.body, "utf8");
  return new Promise<void>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/hook",
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": String(body.length),
          "User-Agent": "Outreach-Webhooks/1",
          "X-Service-Event": item.event,
          "X-Service-Event-Id": item.eventId,
          "X-Service-Timestamp": String(timestamp),
          "X-Service-Signature": `v1=${sig}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          Buffer.concat(chunks).toString("utf8");
          if (res.statusCode === 200) resolve();
          else reject(new Error(`receiver answered ${res.statusCode}`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Runs fn over items with at most `width` in flight: a sliding window, or lock-step groups like deliverDue. */
async function runConcurrently<T>(items: T[], width: number, mode: "pool" | "batch", fn: (t: T) => Promise<unknown>): Promise<void> {
  if (mode === "pool") return runPool(items, width, fn);
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

// ---------------------------------------------------------------------------------------------
// Statement profile (BENCH_PROFILE=1): server time per statement kind, per step.

const statements = new StatementLog(PROFILE);
const printProfile = (step: string, deliveries: number) =>
  statements.print(step, { n: deliveries, of: "deliveries", each: "delivery", unit: "µs" }, 10);

// ---------------------------------------------------------------------------------------------
// CPU profile (BENCH_CPU_PROFILE=1): V8's sampling profiler through the inspector, around each measured phase.

const cpuProfile = new CpuProfiler(CPU_PROFILE, ["job", "bare"] as const);

// ---------------------------------------------------------------------------------------------
// Process-tree CPU (BENCH_PROCS=1, Linux): CPU time of this process, Postgres and the receiver per phase, from /proc.

const PROCS = process.env.BENCH_PROCS === "1";
/** BENCH_EXPLAIN=<ms>: the plans of statements that took longer, with their timings, appended to PLANS_FILE. */
const EXPLAIN_MS = intEnv("BENCH_EXPLAIN", 0);
const PLANS_FILE = path.join(tmpdir(), "bench-webhooks-plans.log");
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU ms by kind (this process, postgres, receiver/other children) of this process and its descendants, and this process's read/write calls. */
function treeCpu(): Record<string, number> {
  const rows: { pid: number; ppid: number; comm: string; ms: number }[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const f = stat.slice(close + 2).split(" ");
      rows.push({
        pid: Number(d),
        ppid: Number(f[1]),
        comm: stat.slice(stat.indexOf("(") + 1, close),
        ms: (Number(f[11]) + Number(f[12])) * TICK_MS,
      });
    } catch {
      /* gone */
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) if (!mine.has(r.pid) && mine.has(r.ppid)) grew = !!mine.add(r.pid);
  }
  // This process's read and write system calls (each write to Postgres or the receiver wakes it).
  const io = readFileSync("/proc/self/io", "utf8");
  const out: Record<string, number> = {
    "reads#": Number(/syscr: (\d+)/.exec(io)?.[1] ?? 0),
    "writes#": Number(/syscw: (\d+)/.exec(io)?.[1] ?? 0),
  };
  for (const r of rows) {
    if (!mine.has(r.pid)) continue;
    const kind = r.pid === process.pid ? "this" : r.comm.startsWith("postgres") ? "postgres" : "children";
    out[kind] = (out[kind] ?? 0) + r.ms;
  }
  return out;
}

const procTotals = new Map<string, { n: number; cpu: Record<string, number> }>();
function procMeter(side: string, n: number): () => void {
  if (!PROCS) return () => {};
  const a = treeCpu();
  return () => {
    const b = treeCpu();
    const t = procTotals.get(side) ?? { n: 0, cpu: {} };
    t.n += n;
    for (const k of Object.keys(b)) t.cpu[k] = (t.cpu[k] ?? 0) + b[k] - (a[k] ?? 0);
    procTotals.set(side, t);
  };
}
function printProcs(): void {
  for (const [side, t] of procTotals)
    say(
      `  ${side}: ${Object.entries(t.cpu)
        .map(([k, v]) => (k.endsWith("#") ? `${k.slice(0, -1)} ${(v / t.n).toFixed(2)}` : `${k} ${fmt((v * 1000) / t.n)} µs`))
        .join(", ")} per delivery (CPU; this process's system calls) (BENCH_PROCS=1)`,
    );
}

interface PhaseResult {
  side: "job" | "store" | "bare" | "fresh";
  n: number;
  ms: number;
  rate: number;
  /** Job only: time inside dispatchEvents / deliverDue, and how many loop turns it took. */
  loops?: number;
  /** This process's CPU time (user + system) during the phase, and the whole machine's busy share. */
  cpuMs: number;
  machineBusy: number;
}

async function main() {
  const bench = await startBenchEnvironment("bench:webhooks", {
    onServerLog: (line) => {
      statements.onServerLog(line);
      if (EXPLAIN_MS) appendFileSync(PLANS_FILE, `${line}\n`);
    },
    logStatements: PROFILE,
    env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1", DNS_SERVERS: undefined },
  });
  let receiver: Receiver | undefined;
  try {
    if (EXPLAIN_MS) {
      // Before the app's pool connects: its sessions load auto_explain and log the plans of slow statements.
      for (const set of [
        "session_preload_libraries = 'auto_explain'",
        `auto_explain.log_min_duration = '${EXPLAIN_MS}ms'`,
        "auto_explain.log_analyze = on",
      ])
        await bench.sql.unsafe(`alter database bench set ${set}`);
      say(`statement plans (auto_explain, over ${EXPLAIN_MS} ms) go to ${PLANS_FILE}`);
    }
    const { systemClock } = await import("@/lib/clock");
    const { emitEvent } = await import("@/lib/events/emit");
    const { createWebhook } = await import("@/lib/webhooks/webhooks");
    const { attemptDelivery } = await import("@/lib/webhooks/deliver");
    const { webhookTurn } = await import("@/lib/webhooks/turn");
    const { verifySignature } = await import("@/lib/webhooks/signing");
    const { safeRequest } = await import("@/lib/net/http");
    const db = bench.dbm.getDb();
    const adminSql = bench.sql;

    receiver = await startReceiver(RECEIVER_MODE);
    say(
      `receiver: node:http on 127.0.0.1:${receiver.port} (${RECEIVER_MODE === "process" ? "child process" : "in this process"}), 200 "ok"`,
    );

    const ws = await benchWorkspace(db, "Webhooks");
    const ctx = systemCtx(ws.workspaceId, { db, clock: systemClock });
    const hook = await createWebhook(ctx, { url: receiver.url, events: [EVENT] });
    const bareSecret = `whsec_${randomBytes(32).toString("base64url")}`;

    // --- Phases ---
    let emitted = 0;
    const emitBatch = async (n: number): Promise<Set<string>> => {
      const ids = new Set<string>();
      for (let i = 0; i < n; i += EMIT_PER_TX) {
        await db.transaction(async (tx) => {
          const at = new Date();
          for (let j = i; j < Math.min(n, i + EMIT_PER_TX); j++) {
            const k = emitted + j;
            ids.add(
              await emitEvent(
                tx,
                ws.workspaceId,
                EVENT,
                {
                  sendEventId: `snd_${String(k).padStart(8, "0")}`,
                  leadEmail: `lead${k}@co${k % 97}.example.com`,
                  mailboxEmail: `sender${k % 7}@outreach.example.com`,
                  campaignId: "cmp_bench",
                  stepNumber: 1 + (k % 3),
                },
                at,
              ),
            );
          }
        });
      }
      emitted += n;
      return ids;
    };

    const check = async (
      label: string,
      got: { reqs: Got[]; connections: number },
      ids: Set<string>,
      secret: string,
      connections: "one each" | "kept" = "one each",
    ) => {
      const problems: string[] = [];
      if (got.reqs.length !== ids.size) problems.push(`receiver got ${got.reqs.length} requests, expected ${ids.size}`);
      if (connections === "one each" && got.connections !== got.reqs.length)
        problems.push(`${got.connections} connections for ${got.reqs.length} requests (expected one each)`);
      if (connections === "kept" && got.connections > IN_FLIGHT)
        problems.push(`${got.connections} connections for ${got.reqs.length} requests (expected at most ${IN_FLIGHT}, kept)`);
      const seen = new Set<string>();
      const nowSeconds = Math.floor(Date.now() / 1000);
      for (const r of got.reqs) {
        if (!ids.has(r.id) || seen.has(r.id)) problems.push(`unexpected or repeated event id ${r.id}`);
        seen.add(r.id);
        if (r.event !== EVENT || r.ct !== "application/json" || r.ua !== "Outreach-Webhooks/1")
          problems.push(`headers of ${r.id}: ${r.event} ${r.ct} ${r.ua}`);
        if (!verifySignature({ secret, header: r.sig, timestamp: r.ts, body: r.body, nowSeconds }))
          problems.push(`signature of ${r.id} does not verify`);
        if ((JSON.parse(r.body) as { id: string }).id !== r.id) problems.push(`body of ${r.id} carries another id`);
        if (problems.length > 5) break;
      }
      if (problems.length) throw new Error(`${label}: ${problems.join("; ")}`);
    };

    const runJob = async (step: string): Promise<{ r: PhaseResult; ids: Set<string> }> => {
      const ids = await emitBatch(N);
      await adminSql.unsafe("vacuum analyze events, webhook_deliveries");
      statements.step = step;
      let delivered = 0;
      let loops = 0;
      let idle = 0;
      if (step !== "warmup") await cpuProfile.start();
      const procs = procMeter(step === "warmup" ? "warmup job" : "job", N);
      const cpu = cpuMeter();
      const start = process.hrtime.bigint();
      while (delivered < N) {
        loops++;
        // The job's own turn (webhookTurn): dispatch and delivery overlapping, as webhookDispatchJob runs them.
        const s = await webhookTurn(db, systemClock);
        const d = s;
        if (s.attempted !== s.delivered) throw new Error(`${step}: ${s.attempted - s.delivered} of ${s.attempted} attempts failed`);
        delivered += s.delivered;
        if (d.events === 0 && s.attempted === 0 && ++idle > 3) throw new Error(`${step}: stalled at ${delivered} of ${N} delivered`);
      }
      const ms = elapsedMs(start);
      const c = cpu();
      procs();
      if (step !== "warmup") await cpuProfile.stop("job", N);
      statements.step = "idle";
      const [{ pending, done, undispatched }] = await adminSql`
        select count(*) filter (where status <> 'DELIVERED')::int as pending,
               count(*) filter (where status = 'DELIVERED' and attempts = 1 and last_status_code = 200)::int as done,
               (select count(*)::int from events) as undispatched
        from webhook_deliveries where event_id in ${adminSql([...ids])}`;
      if (pending !== 0 || done !== N || undispatched !== 0)
        throw new Error(
          `${step}: ${done} DELIVERED on the first attempt, ${pending} not DELIVERED, ${undispatched} events not dispatched (expected ${N}/0/0)`,
        );
      await check(step, await receiver!.collect(), ids, hook.secret, "kept");
      return { r: { side: "job", n: N, ms, rate: (N * 1000) / ms, loops, ...c }, ids };
    };

    let bareItems: BareItem[] = [];
    const runBare = async (step: string, side: "bare" | "fresh" = "bare"): Promise<PhaseResult> => {
      statements.step = step;
      const profiled = step !== "warmup" && side === "bare";
      if (profiled) await cpuProfile.start();
      const procs = procMeter(step === "warmup" ? "warmup bare" : side, bareItems.length);
      const cpu = cpuMeter();
      const start = process.hrtime.bigint();
      const agent = side === "bare" ? keptAgent : false;
      await runConcurrently(bareItems, IN_FLIGHT, BARE_MODE, (it) => bareSignedPost(receiver!.port, bareSecret, it, agent));
      const ms = elapsedMs(start);
      const c = cpu();
      procs();
      if (profiled) await cpuProfile.stop("bare", bareItems.length);
      statements.step = "idle";
      const ids = new Set(bareItems.map((i) => i.eventId));
      await check(step, await receiver!.collect(), ids, bareSecret, side === "bare" ? "kept" : "one each");
      return { side, n: bareItems.length, ms, rate: (bareItems.length * 1000) / ms, ...c };
    };

    // The bare store (the judged baseline): the job's work — outbox events → deliveries → signed POSTs →
    // outcomes — done the best way bare libraries can: postgres.js with prepared statements and
    // TCP_NODELAY, one statement per batch that takes the events out of the outbox and writes their
    // deliveries (the envelope built in SQL), the next batch taken while this one is sent, a window of
    // 10 POSTs in flight over kept connections, the outcomes written 250 at a time while sending goes on.
    // The webhook (its id, events and secret) is known ahead: prepared data, as the bare POSTs' bodies are.
    const store = postgres(bench.url, { max: 4, prepare: true, onnotice: () => {}, ...noDelaySocket(bench.url) });
    type StoreRow = { id: string; eventId: string; event: string; body: string };
    const takeBatch = (limit: number) => {
      const now = new Date();
      return store<StoreRow[]>`
        with b as (
          delete from events where id = any(array(select id from events order by created_at limit ${limit} for update skip locked))
          returning id, workspace_id, event, data, created_at)
        insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, body, next_attempt_at, leased_until, created_at)
        select 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20), b.workspace_id, ${hook.id}, b.id, b.event,
          json_build_object('id', b.id, 'event', b.event,
            'createdAt', to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', b.data)::text,
          ${now}, ${new Date(now.getTime() + 60_000)}, ${now}
        from b where b.workspace_id = ${ws.workspaceId} and b.event = any(${[EVENT]}::text[])
        returning id, event_id as "eventId", event, body`;
    };
    const recordDelivered = (ids: string[]) =>
      store`update webhook_deliveries set attempts = attempts + 1, status = 'DELIVERED', next_attempt_at = null, leased_until = null,
          last_status_code = 200, last_response = 'ok', last_error = null, last_attempt_at = ${new Date()}
        where id = any(${ids}::text[])`;
    const runStore = async (step: string): Promise<PhaseResult> => {
      const ids = await emitBatch(N);
      await adminSql.unsafe("vacuum analyze events, webhook_deliveries");
      statements.step = step;
      const procs = procMeter(step === "warmup" ? "warmup store" : "store", N);
      const cpu = cpuMeter();
      const start = process.hrtime.bigint();
      const queue: StoreRow[] = [];
      let head = 0;
      let taking: Promise<void> | null = null;
      let drained = false;
      let done: string[] = [];
      let writing: Promise<unknown> = Promise.resolve();
      const take = () => {
        taking ??= takeBatch(queue.length === 0 ? FIRST_BATCH : DISPATCH_BATCH).then((rows) => {
          if (rows.length === 0) drained = true;
          for (const r of rows) queue.push(r);
          taking = null;
        });
        return taking;
      };
      const flush = () => {
        const batch = done;
        done = [];
        writing = Promise.all([writing, recordDelivered(batch)]);
      };
      const worker = async () => {
        for (;;) {
          if (!drained && queue.length - head < REFILL_BELOW) void take();
          if (head === queue.length) {
            if (drained) return;
            await take();
            continue;
          }
          const d = queue[head++];
          await bareSignedPost(receiver!.port, hook.secret, d, storeAgent);
          done.push(d.id);
          if (done.length >= OUTCOMES_PER_STATEMENT) flush();
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      if (done.length) flush();
      await writing;
      const ms = elapsedMs(start);
      const c = cpu();
      procs();
      statements.step = "idle";
      const [{ delivered, undispatched }] = await adminSql`
        select count(*) filter (where status = 'DELIVERED' and attempts = 1 and last_status_code = 200)::int as delivered,
               (select count(*)::int from events) as undispatched
        from webhook_deliveries where event_id in ${adminSql([...ids])}`;
      if (delivered !== N || undispatched !== 0)
        throw new Error(`${step}: ${delivered} DELIVERED on the first attempt, ${undispatched} events not dispatched (expected ${N}/0)`);
      await check(step, await receiver!.collect(), ids, hook.secret, "kept");
      return { side: "store", n: N, ms, rate: (N * 1000) / ms, ...c };
    };

    const bareKind = BARE_MODE === "pool" ? `a window of ${IN_FLIGHT} in flight` : `lock-step groups of ${IN_FLIGHT}`;
    say(
      `\n${fmt(N)} deliveries per phase; each run one block (job, bare store, bare POSTs, and back; + warm-up of each side first); bare POSTs: ${bareKind}, kept connections, TCP_NODELAY`,
    );
    const warmJob = await runJob("warmup");
    // The bare side sends the exact bytes the job delivered in its warm-up.
    bareItems = (
      await adminSql<{ eventId: string; event: string; body: string }[]>`
      select event_id as "eventId", event, body from webhook_deliveries where event_id in ${adminSql([...warmJob.ids])} order by created_at, id`
    ).map((r) => ({ ...r }));
    const warmBare = await runBare("warmup");
    const warmStore = await runStore("warmup");
    say(
      `  warm-up: job ${fmt(warmJob.r.rate)} deliveries/s (${fmt(warmJob.r.ms)} ms), bare store ${fmt(warmStore.rate)} deliveries/s (${fmt(warmStore.ms)} ms), bare ${fmt(warmBare.rate)} POSTs/s (${fmt(warmBare.ms)} ms)`,
    );

    const phases: PhaseResult[] = [];
    const freshRatios: number[] = [];
    const bareRatios: number[] = [];
    // Each run: job, bare store, bare POSTs, bare POSTs, bare store, job (reversed every other run), so
    // that each baseline is paired with the job around the block's middle; then the fresh-connection
    // client as context.
    const judged = await judge("job deliveries/s ÷ bare store deliveries/s", async (b) => {
      const block: PhaseResult[] = [];
      const half: ("job" | "store" | "bare")[] = ["job", "store", "bare"];
      const back = [...half].reverse();
      const plan = b % 2 === 0 ? [...half, ...back] : [...back, ...half];
      for (const side of plan)
        block.push(side === "job" ? (await runJob("job")).r : side === "store" ? await runStore("store") : await runBare("bare"));
      const fresh = await runBare("fresh", "fresh"); // context: the bare client without kept connections
      phases.push(...block, fresh);
      const rate = (side: PhaseResult["side"]) => pooledRate(block.filter((p) => p.side === side));
      freshRatios.push(rate("job") / fresh.rate);
      bareRatios.push(rate("job") / rate("bare"));
      say(
        `    ${block.map((p) => `${p.side.padEnd(5)} ${fmt(p.rate).padStart(6)}`).join(" | ")} /s; fresh-connection bare ${fmt(fresh.rate)} /s` +
          `   (machine busy ${block.map((p) => fmt(p.machineBusy * 100)).join("/")} %)`,
      );
      say(`    job ÷ bare POSTs (no database; not judged) ${(rate("job") / rate("bare")).toFixed(3)}`);
      return rate("job") / rate("store");
    });
    const jobs = phases.filter((p) => p.side === "job");
    const stores = phases.filter((p) => p.side === "store");
    const bares = phases.filter((p) => p.side === "bare");
    const freshes = phases.filter((p) => p.side === "fresh");
    const ratio = judged.median;
    await store.end();

    // --- Diagnostics (BENCH_PROFILE=1): the HTTP client alone, and the per-delivery attempt alone. ---
    const diag: string[][] = [];
    if (PROFILE) {
      say(`\nDiagnostics (BENCH_PROFILE=1; statement logging is on, which slows every DB-touching side):`);
      // safeRequest with the job's headers and signing, no database.
      const { signatureHeader } = await import("@/lib/webhooks/signing");
      const viaSafe = async (it: BareItem) => {
        const ts = Math.floor(Date.now() / 1000);
        const res = await safeRequest(receiver!.url, {
          method: "POST",
          timeoutMs: 10_000,
          body: it.body,
          maxBody: 1024,
          keepAlive: true, // as the job's send does
          headers: {
            "Content-Type": "application/json",
            "User-Agent": "Outreach-Webhooks/1",
            "X-Service-Event": it.event,
            "X-Service-Event-Id": it.eventId,
            "X-Service-Timestamp": String(ts),
            "X-Service-Signature": signatureHeader([bareSecret], ts, it.body),
          },
        });
        if (res.status !== 200) throw new Error(`safeRequest got ${res.status}`);
      };
      const timeIt = async (label: string, fn: () => Promise<void>, n: number, verify?: Set<string>, secret = bareSecret) => {
        const start = process.hrtime.bigint();
        await fn();
        const ms = elapsedMs(start);
        const got = await receiver!.collect();
        if (verify) await check(label, got, verify, secret, "kept"); // every path here keeps its connections
        diag.push([label, `${fmt((n * 1000) / ms)} /s`, `${fmt((ms * 1000) / n)} µs each`]);
      };
      const ids = new Set(bareItems.map((i) => i.eventId));
      for (let rep = 0; rep < 2; rep++) {
        await timeIt(
          `bare POST (node:http)`,
          () => runConcurrently(bareItems, IN_FLIGHT, BARE_MODE, (it) => bareSignedPost(receiver!.port, bareSecret, it)),
          N,
          ids,
        );
        await timeIt(`safeRequest only`, () => runConcurrently(bareItems, IN_FLIGHT, BARE_MODE, viaSafe), N, ids);
        await timeIt(`safeRequest, lock-step groups of 10`, () => runConcurrently(bareItems, IN_FLIGHT, "batch", viaSafe), N, ids);
      }
      // attemptDelivery alone (sign + safeRequest + the UPDATE), on the warm-up's rows reset to PENDING.
      const { webhookDeliveries, webhooks } = await import("@/db/schema");
      const { eq, inArray } = await import("drizzle-orm");
      const [w] = await db.select().from(webhooks).where(eq(webhooks.id, hook.id));
      const warmIds = [...warmJob.ids];
      const rows = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, warmIds));
      statements.step = "attemptDelivery only";
      await timeIt(
        `attemptDelivery only (no dispatch/claim)`,
        () =>
          runConcurrently(
            rows.map((d) => ({ ...d, attempts: 0 })),
            IN_FLIGHT,
            "batch",
            (d) => attemptDelivery(db, systemClock, d, w),
          ),
        rows.length,
        warmJob.ids,
        hook.secret,
      );
      statements.step = "idle";
      say(table(["path", "rate", "per request"], diag));
    }

    // --- Summary ---
    const sum = (xs: PhaseResult[], f: (p: PhaseResult) => number) => xs.reduce((a, p) => a + f(p), 0);
    say(
      `\nSummary (medians over ${jobs.length} job, ${stores.length} bare store and ${bares.length} bare POST phases of ${fmt(N)}; ratio = median of ${judged.values.length} runs, one block each)`,
    );
    const cpuOf = (xs: PhaseResult[]) =>
      `${fmt(median(xs.map((p) => (p.cpuMs / p.ms) * 100)))} % of a core, machine ${fmt(median(xs.map((p) => p.machineBusy * 100)))} % busy`;
    say(
      table(
        ["measure", "value", "time", "CPU (this process; all cores)"],
        [
          [
            "job: webhookTurn (dispatch, claims, sends, records)",
            `${fmt(median(jobs.map((p) => p.rate)))} deliveries/s`,
            `${fmt((median(jobs.map((p) => p.ms)) * 1000) / N)} µs each`,
            cpuOf(jobs),
          ],
          ["  webhookTurn calls", `${fmt(median(jobs.map((p) => p.loops!)))} per phase`, "", ""],
          [
            "bare store: the same work with postgres.js + node:http (the judged baseline)",
            `${fmt(median(stores.map((p) => p.rate)))} deliveries/s`,
            `${fmt((median(stores.map((p) => p.ms)) * 1000) / N)} µs each`,
            cpuOf(stores),
          ],
          [
            "bare signed POSTs, no database (kept connections, TCP_NODELAY)",
            `${fmt(median(bares.map((p) => p.rate)))} POSTs/s`,
            `${fmt((median(bares.map((p) => p.ms)) * 1000) / N)} µs each`,
            `${cpuOf(bares)}; job ÷ this ${median(bareRatios).toFixed(3)} (${Math.min(...bareRatios).toFixed(3)}–${Math.max(...bareRatios).toFixed(3)}), not judged`,
          ],
          [
            "  context: bare, a fresh connection each",
            `${fmt(median(freshes.map((p) => p.rate)))} POSTs/s`,
            `${fmt((median(freshes.map((p) => p.ms)) * 1000) / N)} µs each`,
            `job ÷ this ${median(freshRatios).toFixed(3)} (not judged)`,
          ],
        ],
      ),
    );
    say("");
    printJudged([{ judged, target: TARGET }]);
    printProcs();
    if (PROFILE) {
      say("\n(BENCH_PROFILE=1: every statement is logged, which slows the job side; read the ratio above as pessimistic.)");
      await sleep(300); // let the last log lines arrive
      printProfile(
        "job",
        sum(jobs, (p) => p.n),
      );
      printProfile("attemptDelivery only", N);
    }
    cpuProfile.print(
      `CPU profile of this process (BENCH_CPU_PROFILE=1), µs per delivery; "(idle)" is time spent waiting (for Postgres, the receiver, the kernel):`,
      { functions: 25, digits: 1, rawFiles: "bench-webhooks" },
    );
    say(`\ntotal time ${fmt(elapsedMs(bench.t0) / 1000, 1)} s`);
    say(
      JSON.stringify({
        webhookDeliveriesVsBareStore: round3(ratio),
        webhookDeliveriesVsBarePosts: round3(median(bareRatios)),
        judged: judgedJson(judged),
      }),
    );
  } finally {
    cpuProfile.disconnect();
    keptAgent.destroy();
    storeAgent.destroy();
    await receiver?.close().catch(() => {});
    await bench.close();
  }
}

runBench("bench:webhooks", main);
