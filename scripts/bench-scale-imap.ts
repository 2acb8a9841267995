import { randomBytes } from "node:crypto";
import { intEnv, loadAverage, median, percentile, runBench, say, sleep, startBenchEnvironment } from "./bench-util";
import { type Check, type Curve, type Part, type PartOptions, scaled, type Target, target } from "./bench-scale-types";
import { account, type DelayProxy, type Dovecot, replyMessage, startDelayProxy, startDovecot } from "./bench-scale-imap-world";
import { startWorker, type Usage, usageOf, type Worker } from "./bench-scale-imap-worker";

/**
 * bench:scale's reply-sync part (`npm run bench:scale:imap` runs it alone): 500, 1,000 and 2,000 mailboxes
 * (× BENCH_SCALE) on one real Dovecot, read by ONE worker process (the sidecar's local runner with the
 * inbox-sync job as it ships, IMAP_POLL_INTERVAL_S=BENCH_IMAP_POLL_S, default 5), through a TCP proxy that
 * holds every chunk 40 ms each way (an IMAP server another network away), and at each size once without it.
 *
 * World (scripts/bench-scale-imap-world.ts): Dovecot with a passwd-file of the accounts, each Maildir
 * written straight to disk with BENCH_IMAP_HISTORY messages in INBOX (default 4) and half as many in Junk
 * and Sent; one workspace with a mailbox per account. A run: the sync state and replies are emptied, the
 * worker starts, and the time until every mailbox's three folders were read is the first full pass. Then,
 * for BENCH_IMAP_WINDOW_S (60), a quarter as many replies as mailboxes (at least 20) are delivered into
 * random INBOXes at random moments (into the Maildir's new/, as a delivery agent does); the bench then waits
 * until every one is stored. Figures: reply-to-inbox latency (stored at − delivered at) p50/p95/p99, the
 * worker's peak RSS, its CPU over the window (% of a core, and ms per mailbox read), the sockets it holds,
 * and the longest time any mailbox's INBOX went unread during the window (sampled each second).
 * Self-checks: every reply stored exactly once, no cycle failure, no mailbox starved.
 * Judged at the largest size, behind the proxy, median of BENCH_RUNS runs: p95 ≤ interval + 15 s, peak RSS
 * ≤ 1 GB, longest unread ≤ two intervals. The other sizes and the direct runs run once, for the curves.
 */

/** The judged sizes; BENCH_IMAP_SIZES (say "2000") runs only those, unscaled. */
const SIZES = [500, 1000, 2000];
const ONLY = (process.env.BENCH_IMAP_SIZES ?? "")
  .split(",")
  .map(Number)
  .filter((x) => x > 0);
const DELAY_MS = 40;
const POLL_S = intEnv("BENCH_IMAP_POLL_S", 5);
const WINDOW_S = intEnv("BENCH_IMAP_WINDOW_S", 60);
const HISTORY = intEnv("BENCH_IMAP_HISTORY", 4);
const FIRST_PASS_LIMIT_MS = 30 * 60_000;

interface RunFigures {
  firstPassS: number;
  p50: number;
  p95: number;
  p99: number;
  peakRssMb: number;
  cpuCore: number;
  cpuMsPerRead: number;
  sockets: number;
  keptConnections: number;
  maxUnreadS: number;
  replies: number;
  found: number;
  duplicates: number;
  failedCycles: number;
}

type Sql = Awaited<ReturnType<typeof startBenchEnvironment>>["sql"];

interface World {
  sql: Sql;
  dovecot: Dovecot;
  proxy: DelayProxy;
  workspaceId: string;
  mailboxIds: string[];
  workerEnv: NodeJS.ProcessEnv;
}

/** Polls `fn` every `everyMs` until it returns true, or throws after `limitMs`. */
async function until(what: string, fn: () => Promise<boolean>, limitMs: number, everyMs = 500): Promise<number> {
  const t0 = Date.now();
  while (!(await fn())) {
    if (Date.now() - t0 > limitMs) throw new Error(`${what}: not within ${Math.round(limitMs / 1000)} s`);
    await sleep(everyMs);
  }
  return Date.now() - t0;
}

/** Samples the worker's usage each second: the peak RSS, the last figures. */
function usageSampler(pid: number) {
  let peak = 0;
  let last: Usage = usageOf(pid);
  const timer = setInterval(() => {
    try {
      last = usageOf(pid);
      peak = Math.max(peak, last.rssMb);
    } catch {
      // the worker is gone; the run's checks say why
    }
  }, 1000);
  return {
    now: () => (last = usageOf(pid)),
    peak: () => Math.max(peak, last.rssMb),
    stop: () => clearInterval(timer),
  };
}

/** Each second, every mailbox's INBOX read time: the longest any went unread over the window. */
function unreadSampler(sql: Sql, ids: string[]) {
  const seen = new Map<string, number>();
  let longest = 0;
  let stopped = false;
  const start = Date.now();
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql`select mailbox_id, last_sync_at from imap_state where folder = 'INBOX' and last_sync_at is not null`;
      for (const r of rows) {
        const at = new Date(r.last_sync_at as string).getTime();
        const before = seen.get(r.mailbox_id as string);
        if (before !== undefined && at > before) longest = Math.max(longest, at - Math.max(before, start));
        seen.set(r.mailbox_id as string, at);
      }
      await sleep(1000);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const end = Date.now();
    for (const id of ids) longest = Math.max(longest, end - Math.max(seen.get(id) ?? start, start));
    return longest / 1000;
  };
}

/** Delivers `count` replies at random moments of the window into random INBOXes; resolves with their delivery times. */
async function deliverReplies(dovecot: Dovecot, n: number, count: number, tag: string): Promise<Map<string, number>> {
  const plan = Array.from({ length: count }, (_, k) => ({ k, at: Math.random() * WINDOW_S * 1000, box: Math.floor(Math.random() * n) }));
  plan.sort((a, b) => a.at - b.at);
  const delivered = new Map<string, number>();
  const t0 = Date.now();
  for (const p of plan) {
    const wait = t0 + p.at - Date.now();
    if (wait > 0) await sleep(wait);
    const id = `<scale-${tag}-${p.k}@bench-replies.test>`;
    delivered.set(id, dovecot.deliver(p.box, replyMessage(p.box, id)));
  }
  return delivered;
}

/** One run at size n: fresh sync state, one worker, its first full pass, then the window of replies. */
async function oneRun(w: World, n: number, viaProxy: boolean, log: (l: string) => void): Promise<RunFigures> {
  const ids = w.mailboxIds.slice(0, n);
  await w.sql`truncate replies, imap_state cascade`;
  await w.sql`update mailboxes set read_failing_since = null, read_error = null, imap_port = ${viaProxy ? w.proxy.port : w.dovecot.port}`;
  const worker: Worker = startWorker(w.workerEnv);
  const usage = usageSampler(worker.pid);
  try {
    const full = async () => {
      const [{ c }] = await w.sql`select count(*)::int as c from (select mailbox_id from imap_state where last_sync_at is not null
        group by 1 having count(*) = 3) x`;
      if (worker.exited()) throw new Error(`the worker exited: ${worker.stderr().slice(-600)}`);
      return c >= n;
    };
    const firstPassS = (await until("first full pass", full, FIRST_PASS_LIMIT_MS)) / 1000;
    const tag = randomBytes(4).toString("hex");
    const count = Math.max(20, Math.round(n / 4));
    const cpu0 = usage.now().cpuMs;
    const cyclesBefore = worker.cycles.length;
    const stopUnread = unreadSampler(w.sql, ids);
    const delivered = await deliverReplies(w.dovecot, n, count, tag);
    const cpuMs = usage.now().cpuMs - cpu0;
    const windowCycles = worker.cycles.slice(cyclesBefore);
    const reads = windowCycles.reduce((a, c) => a + c.mailboxes, 0);
    const found = async () => {
      const [{ c }] = await w.sql`select count(distinct message_id)::int as c from replies where message_id like ${`<scale-${tag}-%`}`;
      return c >= count;
    };
    await until("every reply stored", found, (2 * POLL_S + 120) * 1000).catch((e) => log(`    ${(e as Error).message}`));
    const maxUnreadS = await stopUnread();
    const sockets = usage.now().sockets;
    const rows = await w.sql`select message_id, min(created_at) as at, count(*)::int as n from replies
      where message_id like ${`<scale-${tag}-%`} group by 1`;
    const lat = rows.map((r) => (new Date(r.at as string).getTime() - delivered.get(r.message_id as string)!) / 1000);
    const failedCycles = worker.cycles.filter((c) => c.failed > 0).length;
    return {
      firstPassS,
      p50: percentile(lat, 50),
      p95: percentile(lat, 95),
      p99: percentile(lat, 99),
      peakRssMb: usage.peak(),
      cpuCore: cpuMs / (WINDOW_S * 1000),
      cpuMsPerRead: reads ? cpuMs / reads : Number.NaN,
      sockets,
      keptConnections: worker.cycles.at(-1)?.openConnections ?? 0,
      maxUnreadS,
      replies: count,
      found: rows.length,
      duplicates: rows.filter((r) => (r.n as number) > 1).length,
      failedCycles,
    };
  } finally {
    usage.stop();
    await worker.stop();
  }
}

/** The world for every size: Postgres with the app's schema, Dovecot, the proxy; mailboxes added as sizes grow. */
async function startWorld(log: (l: string) => void) {
  const bench = await startBenchEnvironment("bench:scale imap", { env: { IMAP_POLL_INTERVAL_S: String(POLL_S) } });
  const dovecot = await startDovecot(HISTORY);
  const proxy = await startDelayProxy(dovecot.port, DELAY_MS);
  const { benchWorkspace } = await import("./bench-util");
  const ws = await benchWorkspace(bench.dbm.getDb(), "Inbox scale");
  log(`Dovecot on 127.0.0.1:${dovecot.port}, proxy (+${DELAY_MS} ms each way) on ${proxy.port}`);
  const world: World = { sql: bench.sql, dovecot, proxy, workspaceId: ws.workspaceId, mailboxIds: [], workerEnv: { ...process.env } };
  const close = async () => {
    await proxy.close().catch(() => {});
    await dovecot.close().catch(() => {});
    await bench.close();
  };
  return { world, close };
}

/** Adds accounts and mailboxes up to n (Maildirs on disk, passwd-file lines, mailbox rows). */
async function growTo(w: World, n: number, log: (l: string) => void): Promise<void> {
  const from = w.mailboxIds.length;
  if (n <= from) return;
  const t0 = Date.now();
  w.dovecot.addAccounts(from, n);
  const { insertMailbox } = await import("@/test/factories");
  const { encryptSecret } = await import("@/lib/crypto/secretbox");
  for (let i = from; i < n; i++) {
    const a = account(i);
    const row = await insertMailbox(w.workspaceId, a.user, {
      imapHost: "127.0.0.1",
      imapPort: w.proxy.port,
      imapUsername: a.user,
      imapPasswordEnc: encryptSecret(a.password),
    });
    w.mailboxIds.push(row.id);
  }
  log(
    `seed: ${n} accounts and mailboxes (${HISTORY} + ${Math.ceil(HISTORY / 2)} + ${Math.ceil(HISTORY / 2)} messages each) in ${Date.now() - t0} ms`,
  );
}

const COLUMNS = [
  "mailboxes",
  "first full pass s",
  "p50 s",
  "p95 s",
  "p99 s",
  "peak RSS MB",
  "RSS KB / mailbox",
  "CPU % core",
  "CPU ms / mailbox read",
  "sockets",
  "kept IMAP",
  "longest unread s",
];

const med = (runs: RunFigures[], k: keyof RunFigures) => median(runs.map((r) => r[k] as number));
const r1 = (x: number) => Math.round(x * 10) / 10;

function curveRow(n: number, runs: RunFigures[]): (string | number)[] {
  const m = (k: keyof RunFigures) => med(runs, k);
  return [n, r1(m("firstPassS")), r1(m("p50")), r1(m("p95")), r1(m("p99")), Math.round(m("peakRssMb"))]
    .concat([Math.round((m("peakRssMb") * 1024) / n), Math.round(m("cpuCore") * 100), Math.round(m("cpuMsPerRead") * 100) / 100])
    .concat([Math.round(m("sockets")), Math.round(m("keptConnections")), r1(m("maxUnreadS"))]);
}

function checksOf(label: string, runs: RunFigures[]): Check[] {
  return runs.flatMap((r, k) => [
    {
      name: `${label} run ${k + 1}: every reply stored exactly once`,
      ok: r.found === r.replies && r.duplicates === 0,
      detail: `${r.found} of ${r.replies} found, ${r.duplicates} more than once`,
    },
    { name: `${label} run ${k + 1}: no failed mailbox read`, ok: r.failedCycles === 0, detail: `${r.failedCycles} cycles with failures` },
    {
      name: `${label} run ${k + 1}: no mailbox unread for more than two intervals`,
      ok: r.maxUnreadS <= 2 * POLL_S + 1,
      detail: `${r1(r.maxUnreadS)} s`,
    },
  ]);
}

export const imapScalePart: Part = async (opts: PartOptions) => {
  const sizes = ONLY.length ? ONLY : [...new Set(SIZES.map((s) => scaled(s, opts.scale, 5)))];
  const { world, close } = await startWorld(opts.log);
  const proxied: (string | number)[][] = [];
  const direct: (string | number)[][] = [];
  const checks: Check[] = [];
  let judged: RunFigures[] = [];
  try {
    for (const [k, n] of sizes.entries()) {
      await growTo(world, n, opts.log);
      const runs: RunFigures[] = [];
      const times = k === sizes.length - 1 ? opts.runs : 1;
      for (let r = 0; r < times; r++) {
        runs.push(await oneRun(world, n, true, opts.log));
        opts.log(`  ${n} mailboxes, proxy, run ${r + 1}: ${JSON.stringify(runs.at(-1))} (load ${loadAverage()})`);
      }
      proxied.push(curveRow(n, runs));
      checks.push(...checksOf(`${n} via proxy`, runs));
      if (k === sizes.length - 1) judged = runs;
      const d = await oneRun(world, n, false, opts.log);
      opts.log(`  ${n} mailboxes, direct: ${JSON.stringify(d)} (load ${loadAverage()})`);
      direct.push(curveRow(n, [d]));
      checks.push(...checksOf(`${n} direct`, [d]));
    }
  } finally {
    await close();
  }
  const n = sizes.at(-1)!;
  const targets: Target[] = [
    target(
      `reply-to-inbox p95, ${n} mailboxes, +${DELAY_MS} ms each way`,
      "s",
      "<=",
      POLL_S + 15,
      judged.map((r) => r1(r.p95)),
    ),
    target(
      `worker peak RSS, ${n} mailboxes`,
      "MB",
      "<=",
      1024,
      judged.map((r) => Math.round(r.peakRssMb)),
    ),
    target(
      `longest a mailbox went unread, ${n} mailboxes`,
      "s",
      "<=",
      2 * POLL_S,
      judged.map((r) => r1(r.maxUnreadS)),
    ),
  ];
  const curves: Curve[] = [
    { title: `Reply sync, one worker, IMAP behind +${DELAY_MS} ms each way (poll ${POLL_S} s)`, columns: COLUMNS, rows: proxied },
    { title: `Reply sync, one worker, IMAP on loopback (poll ${POLL_S} s)`, columns: COLUMNS, rows: direct },
  ];
  return {
    part: "imap",
    curves,
    targets,
    checks,
    figures: { pollS: POLL_S, windowS: WINDOW_S, history: HISTORY, loadAverage: loadAverage() },
  };
};

if (process.argv[1]?.endsWith("bench-scale-imap.ts")) {
  runBench("bench:scale:imap", async () => {
    const scale = Number(process.env.BENCH_SCALE) > 0 ? Number(process.env.BENCH_SCALE) : 1;
    const result = await imapScalePart({ scale, runs: intEnv("BENCH_RUNS", 3), log: say });
    for (const c of result.curves) {
      say(`\n${c.title}`);
      say([c.columns.join(" | "), ...c.rows.map((r) => r.join(" | "))].join("\n"));
    }
    for (const t of result.targets)
      say(`${t.pass ? "PASS" : "FAIL"} ${t.name}: ${t.median} ${t.unit} (limit ${t.cmp} ${t.limit}; runs ${t.runs.join(", ")})`);
    for (const c of result.checks) if (!c.ok) say(`CHECK FAILED ${c.name}: ${c.detail ?? ""}`);
    say(JSON.stringify(result));
  });
}
