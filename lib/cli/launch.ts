import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { checkDatabase } from "../../db/diagnose";
import { closeDb, embeddedServer, resolveDatabaseUrl, runMigrations, stopEmbedded } from "../../db/client";
import { sessionSecret } from "../auth/secrets";
import { ensureDataDir } from "../data-dir";
import { appUrl, cliEnv, dbEnv, outreachSecret, processEnvWith } from "../env";
import { StartupError } from "../startup-error";
import { buildIsCurrent, markBuilt } from "./build";
import { runNextBuild } from "./build-progress";
import { stderrProgress } from "./progress";
import { ensureSecretCheck } from "./secret-check";

export const root = cliEnv.root;
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

export function log(line: string): void {
  process.stderr.write(line + "\n");
}

export function webPort(): number {
  const raw = cliEnv.portText;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new StartupError(`PORT=${raw} is not a port number — set PORT to a number from 1 to 65535`);
  return port;
}

/** Resolves whether `port` can be listened on the way `next start` will (every address, IPv4 and IPv6). */
function tryListen(port: number, host?: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", (e: NodeJS.ErrnoException) => resolve(e));
    s.listen({ port, host, exclusive: true }, () => s.close(() => resolve(undefined)));
  });
}

async function nextFreePort(from: number): Promise<number | undefined> {
  for (let p = from + 1; p < Math.min(from + 50, 65536); p++) if (!(await tryListen(p))) return p;
  return undefined;
}

/** The web port, checked before anything is announced or started. */
export async function checkPortFree(port: number): Promise<void> {
  const err = (await tryListen(port)) ?? (await tryListen(port, "127.0.0.1"));
  if (!err) return;
  if (err.code === "EADDRINUSE") {
    const free = await nextFreePort(port);
    throw new StartupError(`port ${port} is in use — set PORT=${free ?? "<another port>"} (or stop what holds ${port})`);
  }
  if (err.code === "EACCES") throw new StartupError(`port ${port} needs root on this machine — set PORT to 1024 or above`);
  throw new StartupError(`cannot listen on port ${port} (${err.code}) — set PORT to another port`);
}

/**
 * Database ready: the data folder checked, DATABASE_URL checked (or the embedded server started),
 * migrations applied, the secret's check value written once (lib/cli/secret-check.ts). Every failure
 * is one line (StartupError).
 */
export async function prepareDatabase(): Promise<string> {
  const external = Boolean(dbEnv.url);
  ensureDataDir();
  if (!external) log("[outreach] preparing the embedded PostgreSQL…");
  const url = await resolveDatabaseUrl((l) => cliEnv.debug && log(`[postgres] ${l}`));
  await printEmbeddedNotes();
  await checkDatabase(url, { variable: external ? "DATABASE_URL" : "the embedded PostgreSQL" });
  const applied = await runMigrations(url);
  if (applied.length) log(`[outreach] migrations applied: ${applied.join(", ")}`);
  await ensureSecretCheck(url);
  return url;
}

/** Where the embedded server's parts went, when root had to put them outside the checkout. */
export async function printEmbeddedNotes(): Promise<void> {
  const server = await embeddedServer();
  for (const note of server?.owned ? server.layout.notes : []) log(`[outreach] ${note}`);
}

/** Environment shared by every process of this instance. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return processEnvWith({
    OUTREACH_SECRET: outreachSecret(),
    NEXTAUTH_SECRET: sessionSecret(),
    NEXTAUTH_URL: cliEnv.nextAuthUrl ?? appUrl(),
    NEXT_TELEMETRY_DISABLED: "1",
    ...extra,
  });
}

/**
 * The production build, when there is none or its sources changed: `next build` with a progress line
 * (lib/cli/build-progress.ts). It skips Next's own type check (next.config.mjs reads
 * OUTREACH_BUILD_SKIP_TYPECHECK): CI runs `npm run typecheck`, so a start does not check the types a
 * second time — and the generated client's types (npm run gen:client) are not needed for it either.
 */
export async function ensureBuild(): Promise<void> {
  if (cliEnv.skipBuild || buildIsCurrent(root)) return;
  await runNextBuild({
    root,
    nextBin,
    env: childEnv({ NODE_ENV: "production", OUTREACH_BUILD_SKIP_TYPECHECK: "1" }),
    first: !existsSync(path.join(root, ".next", "BUILD_ID")),
    verbose: cliEnv.debug,
    ...stderrProgress(),
  });
  markBuilt(root);
}

/**
 * The web server: `next dev` for dev; for start, bin/web-server.mjs — Next's custom server on the
 * build with the open pixel and click redirect answered before Next (lib/cli/web-server.ts).
 */
export function spawnNext(mode: "start" | "dev", port: number): ChildProcess {
  const args = mode === "dev" ? [nextBin, "dev", "-p", String(port)] : [path.join(root, "bin", "web-server.mjs")];
  return spawn(process.execPath, args, { stdio: "inherit", env: childEnv({ PORT: String(port) }), cwd: root });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM, then SIGKILL when it has not exited within `graceMs`. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGTERM");
  if (await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)])) return;
  child.kill("SIGKILL");
  await exited;
}

/** The shutdown budget (spec'd as 10 s in all): web, then the worker, then the embedded database. */
export const SHUTDOWN_MS = { web: 3000, worker: 3500, database: 2500 };

/** A SIGTERM or SIGINT that came while a long-running command was still starting (holdStopSignals). */
let held: NodeJS.Signals | undefined;
const holdSignal = (signal: NodeJS.Signals) => {
  held ??= signal;
};

/**
 * For the long-running commands (start, serve, dev, worker), from their first step: a SIGTERM or SIGINT
 * while the database is prepared, the build runs or the worker starts is held instead of taking the
 * signal's default action, which would end the launcher at once (killed, no exit code) and leave the
 * embedded PostgreSQL it had just started running. supervise then stops what was started, in order.
 */
export function holdStopSignals(): void {
  process.on("SIGTERM", holdSignal);
  process.on("SIGINT", holdSignal);
}

/** Whether a stop signal came during start-up (the remaining start steps are skipped). */
export const stopHeld = (): boolean => held !== undefined;

/**
 * Keeps the launcher up while its parts run. SIGTERM or SIGINT — or one part exiting — stops them all,
 * in order: the web server (no new requests), the worker (its current job finishes or is left to its
 * leases), then the embedded PostgreSQL when this process started it.
 */
export async function supervise(web: ChildProcess | undefined, worker?: { stop(): Promise<void> }): Promise<never> {
  let stopping = false;
  const stop = async (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    const t0 = performance.now(); // elapsed time for the operator's line, not a domain time
    log(`[outreach] stopping (${why})…`);
    if (web) await stopChild(web, SHUTDOWN_MS.web);
    if (web) log("[outreach] web server stopped");
    if (worker) {
      const done = await Promise.race([worker.stop().then(() => true), sleep(SHUTDOWN_MS.worker).then(() => false)]);
      log(done ? "[outreach] worker stopped" : "[outreach] worker stopped mid-job (its claims lapse with their leases)");
    }
    await closeDb().catch(() => {});
    const server = await embeddedServer();
    if (server?.owned) {
      await stopEmbedded(SHUTDOWN_MS.database);
      log("[outreach] database stopped");
    }
    log(`[outreach] stopped in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0, "SIGINT"));
  process.on("SIGTERM", () => void stop(0, "SIGTERM"));
  process.off("SIGTERM", holdSignal);
  process.off("SIGINT", holdSignal);
  if (held) void stop(0, `${held} while starting`);
  web?.on("exit", (code, signal) => void stop(code ?? 1, `the web server exited${signal ? ` on ${signal}` : ` with code ${code}`}`));
  return new Promise<never>(() => {});
}

/** Stops what a failed start left running (the embedded server), so nothing half-started remains. */
export async function cleanUpAfterFailure(): Promise<void> {
  await closeDb().catch(() => {});
  await stopEmbedded(SHUTDOWN_MS.database).catch(() => {});
}
