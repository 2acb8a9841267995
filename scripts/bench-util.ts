/**
 * Helpers for the benchmarks in scripts/: a throwaway embedded PostgreSQL (started the way
 * test/global-setup.ts does) with the app's environment set around it (startBenchEnvironment), the
 * server's statement log summed per step (StatementLog), V8 CPU profiles per side (CpuProfiler), a
 * helper process spoken to over IPC (startIpcHelper), a seeded workspace, COPY FROM STDIN of lead
 * rows, small statistics and table printing.
 * Only the db/ modules are imported statically: they read no app env at import time. The app's own
 * modules (db/client included) are imported once startBenchEnvironment has set the environment.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { LeadState } from "../lib/leads/merge"; // a type only: no app module is loaded
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";
import { connect, type Socket } from "node:net";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import postgres from "postgres";
import type { Db } from "../db/client";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "../db/embedded";
import { freePort } from "../test/peers/ports";
export { freePort };

export const say = (s = "") => process.stdout.write(s + "\n");

/** A positive whole number from the environment (0 too with allowZero); otherwise the fallback. */
export function intEnv(name: string, fallback: number, allowZero = false): number {
  const v = process.env[name];
  const n = Number(v);
  return v !== undefined && v !== "" && Number.isFinite(n) && (n > 0 || (allowZero && n === 0)) ? Math.floor(n) : fallback;
}

/** The 1, 5 and 15 minute load averages, as the banner and closing lines print them. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Runs a benchmark's main: exits 0 when it ends (PASS or BELOW TARGET alike), 1 with the error when it throws. */
export function runBench(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(`${name} failed:`, err);
      process.exit(1);
    },
  );
}

export interface ThrowawayPostgres {
  server: EmbeddedServer;
  root: string;
  /** Stops the server and removes its files. Safe to call twice. */
  stop(): Promise<void>;
}

/** A non-persistent cluster for a temp data folder (placed where the `postgres` user can reach it when we are root). */
export async function startThrowawayPostgres(log?: (line: string) => void): Promise<ThrowawayPostgres> {
  const root = mkdtempSync(path.join(tmpdir(), "outreach-bench-"));
  const server = await startEmbeddedPostgres({ dataDir: root, port: await freePort(), persistent: false, log });
  let stopped = false;
  return {
    server,
    root,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop().catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export { ensureDatabase };

export interface BenchEnvironment {
  /** When the run started (the banner line), for the closing "total time". */
  t0: bigint;
  pg: ThrowawayPostgres;
  /** The server's `postgres` database (CREATE DATABASE, ALTER DATABASE). */
  adminUrl: string;
  /** The `bench` database: DATABASE_URL of the app's modules. */
  url: string;
  /** db/client, imported once the environment was set. */
  dbm: typeof import("../db/client");
  /** One connection to `bench` outside the app's pool (checks, VACUUM, COPY), with TCP_NODELAY when asked. */
  sql: postgres.Sql;
  /** Closes `sql` and the app's pool, stops the server and removes its files. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * What every benchmark starts with: the banner line, a throwaway server with a `bench` database, the
 * app's environment (DATABASE_URL, a fresh OUTREACH_SECRET, OUTREACH_DATA_DIR in the temp folder, then
 * `env`: a value sets a variable, undefined removes it) before any app module is imported, the
 * migrations, and the PostgreSQL version line. logStatements turns on the server's statement log
 * (log_min_duration_statement = 0 for `bench`; read it with a StatementLog's onServerLog).
 */
export async function startBenchEnvironment(
  name: string,
  opts: {
    onServerLog?: (line: string) => void;
    env?: Record<string, string | undefined>;
    logStatements?: boolean;
    sqlNoDelay?: boolean;
  } = {},
): Promise<BenchEnvironment> {
  const t0 = process.hrtime.bigint();
  say(`${name} — node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "?"}), load average ${loadAverage()}`);
  const pg = await startThrowawayPostgres(opts.onServerLog);
  let sql: postgres.Sql | undefined;
  let dbm: typeof import("../db/client") | undefined;
  const close = async () => {
    await sql?.end({ timeout: 5 }).catch(() => {});
    await dbm?.closeDb().catch(() => {});
    await pg.stop();
  };
  try {
    // --- Environment first, app modules after (they read it). ---
    const adminUrl = pg.server.url("postgres");
    await ensureDatabase(adminUrl, "bench");
    const url = pg.server.url("bench");
    process.env.DATABASE_URL = url;
    process.env.OUTREACH_SECRET = randomBytes(32).toString("hex");
    process.env.OUTREACH_DATA_DIR = path.join(pg.root, "data");
    for (const [k, v] of Object.entries(opts.env ?? {})) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    dbm = await import("../db/client");
    await dbm.runMigrations(url);
    if (opts.logStatements) {
      const s = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await s.unsafe(`alter database bench set log_min_duration_statement = 0`);
      await s.end();
    }
    sql = postgres(url, { max: 1, onnotice: () => {}, ...(opts.sqlNoDelay ? noDelaySocket(url) : {}) });
    const [{ version }] = await sql`select current_setting('server_version') as version`;
    say(`PostgreSQL ${version} (embedded, fsync=off), app pool max ${dbm.poolMax()}`);
    return { t0, pg, adminUrl, url, dbm, sql, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * postgres.js option that connects with TCP_NODELAY. postgres.js leaves Nagle's algorithm on, and a
 * small write that follows a large one (COPY's CopyDone after the data, a query's Sync after a big
 * Bind) then waits for the server's delayed ACK: ~40 ms on Linux loopback. The COPY baseline must not
 * pay that, or the ratio flatters the API.
 */
export function noDelaySocket(url: string): { socket: () => Promise<Socket> } {
  const u = new URL(url);
  return {
    socket: () =>
      new Promise<Socket>((resolve, reject) => {
        const s = connect(Number(u.port || 5432), u.hostname, () => {
          s.off("error", reject);
          resolve(s);
        });
        s.setNoDelay(true);
        s.once("error", reject);
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Seed

/** The owner of the benchmarks' workspaces. */
export const BENCH_OWNER = { email: "bench@example.com", password: "bench-password-1", name: "Bench" };

/** A workspace set up as sign-up does (setupWorkspace), owned by BENCH_OWNER or the given owner. */
export async function benchWorkspace(
  db: Db,
  workspaceName: string,
  owner: Partial<typeof BENCH_OWNER> = {},
): Promise<{ workspaceId: string; userId: string }> {
  const { setupWorkspace } = await import("../lib/auth/users");
  const { workspaceId, userId } = await setupWorkspace(db, { ...BENCH_OWNER, ...owner, workspaceName });
  return { workspaceId, userId };
}

/** A full-scope API key of the workspace's owner. */
export async function fullApiKey(db: Db, ws: { workspaceId: string; userId: string }): Promise<string> {
  const { issueApiKey } = await import("../lib/auth/api-keys");
  return (await issueApiKey(db, { workspaceId: ws.workspaceId, userId: ws.userId, scope: "full" }, new Date())).key;
}

/** Runs fn over items with at most `width` in flight: a sliding window, each worker taking the next item. */
export async function runPool<T>(items: readonly T[], width: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

// ---------------------------------------------------------------------------------------------
// Helper processes: a peer (HTTP receiver, IMAP servers, SMTP sink) the benchmark talks to over IPC.

export interface IpcHelper {
  send(m: object): void;
  /** The helper's next message of this type; rejects when it reports "failed" or its process exits. */
  next(type: string): Promise<Record<string, unknown>>;
  /** Sends "close", waits for "closed" (at most timeoutMs), then kills a child process still running. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Runs `js`, plain JS that talks through a variable `ipc` (ipc.send(m), ipc.on("message", f)), in a
 * child node process (mode "process": its CPU is not spent on the thread being measured, as a real
 * peer is another machine) or in this process ("inline"); `require` resolves from the working folder.
 */
export function startIpcHelper(name: string, js: string, mode: "process" | "inline", env?: NodeJS.ProcessEnv): IpcHelper {
  const toParent = new EventEmitter();
  toParent.setMaxListeners(50);
  let child: ChildProcess | undefined;
  let exited: Record<string, unknown> | undefined;
  let send: (m: object) => void;
  toParent.on("message", (m: Record<string, unknown>) => {
    if (m.type === "exited") exited = m;
  });
  if (mode === "process") {
    child = spawn(process.execPath, ["-e", `const ipc = process;\n${js}`], {
      cwd: process.cwd(),
      env: env ?? process.env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("message", (m) => toParent.emit("message", m));
    child.once("exit", (code) => toParent.emit("message", { type: "exited", code }));
    send = (m) => child!.send(m);
  } else {
    const toHelper = new EventEmitter();
    const ipc = {
      send: (m: unknown) => setImmediate(() => toParent.emit("message", m)),
      on: (e: string, f: (m: unknown) => void) => toHelper.on(e, f),
    };
    new Function("ipc", "require", js)(ipc, createRequire(path.join(process.cwd(), "noop.js")));
    send = (m) => setImmediate(() => toHelper.emit("message", m));
  }
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const fail = (m: Record<string, unknown>) => reject(new Error(`${name} ${m.type}: ${m.code ?? m.error}`));
      if (exited) return fail(exited);
      const on = (m: Record<string, unknown>) => {
        if (m.type === type) {
          toParent.off("message", on);
          resolve(m);
        } else if (m.type === "exited" || m.type === "failed") {
          toParent.off("message", on);
          fail(m);
        }
      };
      toParent.on("message", on);
    });
  return {
    send,
    next,
    async close(timeoutMs = 2000) {
      const p = next("closed").catch(() => {});
      if (!child || child.connected) send({ type: "close" });
      await Promise.race([p, sleep(timeoutMs)]);
      if (child && child.exitCode === null) child.kill();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Statement log (BENCH_PROFILE=1): the server logs each statement's duration; we sum per step.

/**
 * Server time per statement kind, summed per step from the server's log: pass onServerLog to
 * startBenchEnvironment with logStatements on (or turn log_min_duration_statement on later), set
 * `step` around what is measured, and print a step afterwards. Lines are counted while `enabled`.
 */
export class StatementLog {
  step = "setup";
  readonly steps = new Map<string, Map<string, { n: number; ms: number }>>();

  constructor(
    public enabled: boolean,
    /** How much of a statement's text names its kind. */
    private readonly width = 100,
  ) {}

  readonly onServerLog = (line: string): void => {
    if (!this.enabled) return;
    // A multi-line statement continues on lines that start with a tab: join them to their entry first.
    for (const l of line.replace(/\n\t/g, " ").split("\n")) {
      const m = /duration: ([\d.]+) ms\s+(parse|bind|execute|statement)[^:]*:\s*(.*)$/.exec(l);
      if (!m) continue;
      const kind = `${m[2].padEnd(7)} ${m[3]
        .replace(/\s+/g, " ")
        .replace(/\$\d+/g, "$")
        .replace(/(\(\$, )+\$\)/g, "($…)")
        .slice(0, this.width)}`;
      let step = this.steps.get(this.step);
      if (!step) this.steps.set(this.step, (step = new Map()));
      const e = step.get(kind) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += Number(m[1]);
      step.set(kind, e);
    }
  };

  /**
   * The step's `top` slowest statement kinds, with server time per unit of work: `per.n` of
   * `per.of` ("10 calls", "1,500 deliveries"), each a `per.each`, in ms (2 decimals) or µs.
   */
  print(step: string, per: { n: number; of: string; each: string; unit: "ms" | "µs" }, top: number): void {
    const s = this.steps.get(step);
    if (!s) {
      say(`(no statement log for ${step})`);
      return;
    }
    const rows = [...s.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, top);
    const total = [...s.values()].reduce((a, e) => a + e.ms, 0);
    const count = [...s.values()].reduce((a, e) => a + e.n, 0);
    const perUnit = (ms: number) => (per.unit === "ms" ? fmt(ms / per.n, 2) : fmt((ms * 1000) / per.n, 0));
    say(
      `\nServer time per statement kind, "${step}" (${fmt(per.n)} ${per.of}, ${fmt(count / per.n, 1)} log entries and ${perUnit(total)} ${per.unit} server time per ${per.each}):`,
    );
    say(
      table(
        ["statement", "count", "ms total", `${per.unit}/${per.each}`],
        rows.map(([k, e]) => [k, String(e.n), fmt(e.ms, 1), perUnit(e.ms)]),
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// CPU profile (BENCH_CPU_PROFILE=1): V8's sampling profiler through the inspector.

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, a node: module, a project file, or V8's own buckets. */
function frameOwner(url: string, fn: string): string {
  if (!url) return fn || "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (nm) return nm[1];
  if (url.startsWith("node:")) return url.replace(/^node:(internal\/)?/, "node:").replace(/\/.*$/, "");
  return url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
}

/**
 * This process's CPU profile around measured phases (start … stop(side, units of work)), summed per
 * side and printed as µs of CPU per unit by owner (package, node: module, project file) and by
 * function, sorted by the first side. Does nothing unless enabled.
 */
export class CpuProfiler<Side extends string> {
  private session: Session | undefined;
  private readonly profiles: { side: Side; n: number; profile: CpuProfile }[] = [];

  constructor(
    private readonly enabled: boolean,
    private readonly sides: readonly [Side, ...Side[]],
  ) {}

  async start(): Promise<void> {
    if (!this.enabled) return;
    if (!this.session) {
      this.session = new Session();
      this.session.connect();
      await this.session.post("Profiler.enable");
      await this.session.post("Profiler.setSamplingInterval", { interval: 250 });
    }
    await this.session.post("Profiler.start");
  }

  async stop(side: Side, n: number): Promise<void> {
    if (!this.session) return;
    const { profile } = (await this.session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
    this.profiles.push({ side, n, profile });
  }

  disconnect(): void {
    this.session?.disconnect();
  }

  /** `title` heads the tables; rawFiles names the .cpuprofile files written to the temp folder (none without it). */
  print(title: string, opts: { functions: number; digits: number; rawFiles?: string }): void {
    if (!this.profiles.length) return;
    const zero = () => Object.fromEntries(this.sides.map((s) => [s, 0])) as Record<Side, number>;
    const byOwner = new Map<string, Record<Side, number>>();
    const byFn = new Map<string, Record<Side, number>>();
    const units = zero();
    this.profiles.forEach(({ side, n, profile }, index) => {
      units[side] += n;
      const nodes = new Map(profile.nodes.map((x) => [x.id, x]));
      profile.samples.forEach((id, i) => {
        const cf = nodes.get(id)!.callFrame;
        const us = profile.timeDeltas[i] ?? 0;
        const owner = frameOwner(cf.url, cf.functionName);
        const fn = `${cf.functionName || "(anonymous)"} ${owner}${cf.url ? `:${cf.lineNumber + 1}` : ""}`;
        for (const [map, key] of [
          [byOwner, owner],
          [byFn, fn],
        ] as const) {
          const e = map.get(key) ?? zero();
          e[side] += us;
          map.set(key, e);
        }
      });
      if (opts.rawFiles) writeFileSync(path.join(tmpdir(), `${opts.rawFiles}-${index + 1}-${side}.cpuprofile`), JSON.stringify(profile));
    });
    const per = (e: Record<Side, number>, s: Side) => (units[s] ? e[s] / units[s] : 0);
    const rows = (m: Map<string, Record<Side, number>>, k: number) =>
      [...m.entries()]
        .sort((a, b) => per(b[1], this.sides[0]) - per(a[1], this.sides[0]))
        .slice(0, k)
        .map(([key, e]) => [key.slice(0, 90), ...this.sides.map((s) => fmt(per(e, s), opts.digits))]);
    say(`\n${title}`);
    say(table(["where (self time)", ...this.sides], rows(byOwner, 16)));
    say("");
    say(table(["function (self time)", ...this.sides], rows(byFn, opts.functions)));
    if (opts.rawFiles) say(`(raw profiles: ${path.join(tmpdir(), `${opts.rawFiles}-*.cpuprofile`)})`);
  }
}

// ---------------------------------------------------------------------------------------------
// COPY FROM STDIN (text format)

/** Columns the benchmark writes with COPY, in the order of copyLeadLine's fields. */
export const COPY_LEAD_COLUMNS = [
  "id",
  "workspace_id",
  "email",
  "first_name",
  "last_name",
  "company_name",
  "company_domain",
  "phone_number",
  "job_title",
  "timezone",
  "custom_fields",
  "verification_status",
  "created_at",
  "updated_at",
] as const;

/** A lead row for COPY: the lead's fields as the app keeps them (LeadState), plus the row's own columns. */
export type CopyLead = LeadState & { id: string; workspaceId: string; createdAt: Date; updatedAt: Date };

/** One value in COPY text format: \N for null; backslash, tab, newline and CR escaped. */
function copyValue(v: string | null): string {
  if (v === null) return "\\N";
  return v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

export function copyLeadLine(r: CopyLead): string {
  return (
    [
      r.id,
      r.workspaceId,
      r.email,
      r.firstName,
      r.lastName,
      r.companyName,
      r.companyDomain,
      r.phoneNumber,
      r.jobTitle,
      r.timezone,
      JSON.stringify(r.customFields),
      r.verificationStatus,
      r.createdAt.toISOString(),
      r.updatedAt.toISOString(),
    ]
      .map(copyValue)
      .join("\t") + "\n"
  );
}

/** Streams the rows into `leads` with COPY FROM STDIN; the rows are formatted as they are sent. */
export async function copyLeads(sql: postgres.Sql, rows: CopyLead[], chunkRows = 250): Promise<void> {
  const writable = await sql.unsafe(`copy leads (${COPY_LEAD_COLUMNS.join(", ")}) from stdin`).writable();
  async function* chunks() {
    for (let i = 0; i < rows.length; i += chunkRows) {
      let s = "";
      for (const r of rows.slice(i, i + chunkRows)) s += copyLeadLine(r);
      yield Buffer.from(s, "utf8");
    }
  }
  await pipeline(Readable.from(chunks()), writable);
}

// ---------------------------------------------------------------------------------------------
// Numbers and printing

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A plain fixed-width table: first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** The phase order of ABBA block b (a b b a, then b a a b, …): a drift in machine speed cancels within each block. */
export function abbaPlan<S extends string>(b: number, a: S, other: S): S[] {
  return b % 2 === 0 ? [a, other, other, a] : [other, a, a, other];
}

/** Units per second over phases taken together: all their units ÷ all their time. */
export function pooledRate(phases: { n: number; ms: number }[]): number {
  return (phases.reduce((a, p) => a + p.n, 0) * 1000) / phases.reduce((a, p) => a + p.ms, 0);
}

/** Rounded to 3 decimals, as the final JSON lines print ratios. */
export const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU used by this process and how busy the whole machine was, between the call and the returned function's call. */
export function cpuMeter(): () => { cpuMs: number; machineBusy: number } {
  const u0 = process.cpuUsage();
  const m0 = machineTimes();
  return () => {
    const u = process.cpuUsage(u0);
    const m = machineTimes();
    const total = m.total - m0.total;
    return { cpuMs: (u.user + u.system) / 1000, machineBusy: total > 0 ? 1 - (m.idle - m0.idle) / total : NaN };
  };
}
function machineTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    idle += c.times.idle;
    total += c.times.idle + c.times.user + c.times.nice + c.times.sys + c.times.irq;
  }
  return { idle, total };
}

// ---------------------------------------------------------------------------------------------
// Judged parts: three runs, median and spread, and the machine's load

/** How many times each judged part runs (BENCH_RUNS, default 3). */
export const JUDGED_RUNS = intEnv("BENCH_RUNS", 3);

/** One judged figure over its runs: each run's value, the median, the spread (max − min) and the load seen. */
export interface Judged {
  name: string;
  values: number[];
  median: number;
  min: number;
  max: number;
  spread: number;
  /** The 1-minute load average after each run, and the 1/5/15-minute averages at the end. */
  loads: number[];
  loadAtEnd: string;
}

/**
 * Runs a judged part `runs` times (each run returns its figure, e.g. a ratio) and reports the median
 * and the spread, with the machine's load average after each run — so a reader can tell a slow
 * machine from slow code. Prints one line per run as it goes.
 */
export async function judge(
  name: string,
  run: (index: number) => Promise<number>,
  opts: { runs?: number; digits?: number } = {},
): Promise<Judged> {
  const runs = opts.runs ?? JUDGED_RUNS;
  const digits = opts.digits ?? 3;
  const values: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < runs; i++) {
    const v = await run(i);
    values.push(v);
    loads.push(os.loadavg()[0]);
    say(`  ${name}, run ${i + 1}/${runs}: ${v.toFixed(digits)} (load average ${loadAverage()})`);
  }
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { name, values, median: median(values), min, max, spread: max - min, loads, loadAtEnd: loadAverage() };
}

/** A judged figure as a table row: name, median, spread over the runs, target, result. */
export function judgedRow(j: Judged, target: number, digits = 3): string[] {
  const runs = `${j.min.toFixed(digits)}–${j.max.toFixed(digits)} (±${(j.spread / 2).toFixed(digits)}, ${j.values.length} runs)`;
  return [j.name, j.median.toFixed(digits), runs, `≥ ${target}`, j.median >= target ? "PASS" : "BELOW TARGET"];
}

/** The table of judged figures, with the load average during the runs under it. */
export function printJudged(rows: { judged: Judged; target: number; digits?: number }[]): void {
  say(
    table(
      ["judged", "median", "spread", "target", "result"],
      rows.map((r) => judgedRow(r.judged, r.target, r.digits)),
    ),
  );
  const loads = rows.flatMap((r) => r.judged.loads).map((l) => l.toFixed(2));
  say(`load average (1 min) after each run: ${loads.join(", ")}; at the end ${loadAverage()} (${os.cpus().length} CPUs)`);
}

/** The JSON summary of a judged figure: median, runs and load, for the table of docs/benchmarks.md. */
export function judgedJson(j: Judged): { median: number; min: number; max: number; runs: number[]; load: number[] } {
  return { median: round3(j.median), min: round3(j.min), max: round3(j.max), runs: j.values.map(round3), load: j.loads.map(round3) };
}
