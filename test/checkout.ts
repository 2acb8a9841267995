import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "..");

export const isRoot = process.getuid?.() === 0;

export interface User {
  name: string;
  uid: number;
  gid: number;
}

/** This process's own user (an ordinary user when the suite does not run as root). */
export function currentUser(): User {
  return { name: execFileSync("id", ["-un"], { encoding: "utf8" }).trim(), uid: process.getuid!(), gid: process.getgid!() };
}

/**
 * An unprivileged user for tests that must run as one: created (system account, no home) when we are
 * root; when we are not root, the user running the suite is that ordinary user.
 */
export function unprivilegedUser(name = "outreach-test"): User {
  if (!isRoot) return currentUser();
  const id = (flag: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  try {
    return { name, uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", name]);
    return { name, uid: id("-u"), gid: id("-g") };
  }
}

/** A private folder (mode 0700, as mkdtemp makes it), owned by `owner` when given. */
export function privateFolder(prefix: string, owner?: User): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (owner && isRoot) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/**
 * A checkout of this repository at `dest` made of hard links (a copy where hard links cannot be made):
 * the same code and node_modules — the embedded PostgreSQL binaries among them — inside `dest`'s
 * parents. With `owner`, the new folders are theirs (the linked files stay shared and read-only).
 */
export function copyCheckout(dest: string, owner?: User): string {
  const skip = new Set([".git", ".next", ".data", "test-results", "playwright-report", "tsconfig.tsbuildinfo"]);
  const entries = readdirSync(repoRoot).filter((n) => !skip.has(n));
  mkdirSync(dest, { recursive: true });
  try {
    execFileSync("cp", ["-al", ...entries.map((n) => path.join(repoRoot, n)), dest + "/"]);
  } catch {
    execFileSync("cp", ["-a", ...entries.map((n) => path.join(repoRoot, n)), dest + "/"]);
  }
  if (owner && isRoot) execFileSync("find", [dest, "-type", "d", "-exec", "chown", `${owner.uid}:${owner.gid}`, "{}", "+"]);
  return dest;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The environment of a person's shell: nothing of this test run's database or secrets. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: "C.UTF-8", NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface CliOptions {
  checkout?: string;
  env?: NodeJS.ProcessEnv;
  as?: User;
  nodeArgs?: string[];
}

/** Starts `outreach <args>` from a checkout, as `as` when given. */
export function startCli(args: string[], opts: CliOptions = {}): ChildProcess & { out: () => { stdout: string; stderr: string } } {
  const checkout = opts.checkout ?? repoRoot;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), path.join(checkout, "bin", "outreach.mjs"), ...args], {
    cwd: checkout,
    env: opts.env ?? cleanEnv(),
    ...(opts.as && isRoot ? { uid: opts.as.uid, gid: opts.as.gid } : {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return Object.assign(child, { out: () => ({ stdout, stderr }) });
}

/** Runs `outreach <args>` to its end. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<Run> {
  const t0 = Date.now();
  const child = startCli(args, opts);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, ...child.out(), ms: Date.now() - t0 })));
}

/** Waits until `pred` holds for the child's output, or it exits. */
export async function waitForOutput(
  child: ReturnType<typeof startCli>,
  pred: (o: { stdout: string; stderr: string }) => boolean,
  ms = 120_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred(child.out())) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before the expected output:\n${child.out().stderr}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting; output so far:\n${child.out().stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Removes a data folder and, when root placed its cluster elsewhere (the folder's pointer file says
 * where), that cluster too.
 */
export function removeDataDir(dir: string): void {
  const pointer = path.join(dir, "postgres-cluster");
  if (existsSync(pointer)) rmSync(readFileSync(pointer, "utf8").trim(), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
