import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  cleanEnv,
  copyCheckout,
  isRoot,
  privateFolder,
  removeTree,
  runCli,
  startCli,
  unprivilegedUser,
  waitForOutput,
  type User,
} from "@/test/checkout";
import { freePort } from "@/test/peers/ports";

const cleanup: string[] = [];

/** The pids of PostgreSQL servers started with `-p <port>` (read from /proc). */
function postgresOnPort(port: number): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const args = readFileSync(`/proc/${n}/cmdline`, "utf8").split("\0");
        return /postgres$/.test(args[0]) && args.some((a, i) => a === "-p" && args[i + 1] === String(port));
      } catch {
        return false;
      }
    })
    .map(Number);
}
// Removing the hard-linked checkouts (tens of thousands of links each) can take a while on a busy machine.
afterAll(() => {
  for (const d of cleanup) removeTree(d);
}, 300_000);

/** A folder where root may place the parts the `postgres` user needs (fresh per test, so a copy is seen). */
function runtimeFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "outreach-runtime-"));
  chmodSync(dir, 0o755);
  cleanup.push(dir);
  return dir;
}

/** Every path under `dir` that someone other than its owner could write. */
function worldWritable(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (!st.isSymbolicLink() && (st.mode & 0o002) !== 0) out.push(p);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(path.join(p, n));
  };
  walk(dir);
  return out;
}

function uidOfProcess(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Uid:"))!;
  return Number(line.split(/\s+/)[1]);
}

function postgresUid(): number {
  return Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
}

/** The suite's own database set-up (global setup + per-file clone), run by Vitest from `checkout`. */
async function runSmokeSuite(checkout: string, env: NodeJS.ProcessEnv, as?: User) {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [path.join(checkout, "node_modules", "vitest", "vitest.mjs"), "run", "test/db-smoke.test.ts"], {
    cwd: checkout,
    env: { ...env, NODE_ENV: "test" },
    ...(as && isRoot ? { uid: as.uid, gid: as.gid } : {}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((r) => child.on("close", r));
  return { code, output };
}

describe(isRoot ? "first run as root from a private folder" : "first run as this user from a private folder", () => {
  it("starts, migrates and restarts from a checkout whose parents the server's user cannot traverse", async () => {
    const base = privateFolder("outreach-private-"); // mode 0700, like root's home
    cleanup.push(base);
    const runtime = runtimeFolder();
    const checkout = copyCheckout(path.join(base, "checkout"), undefined);
    const env = cleanEnv({ HOME: base, OUTREACH_PG_RUNTIME_DIR: runtime, EMBEDDED_PG_PORT: String(await freePort()) });

    const first = await runCli(["setup", "--email", "owner@example.com", "--password", "password123", "--workspace", "Acme", "--json"], {
      checkout,
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).workspaceId).toMatch(/^ws_/);

    if (isRoot) {
      // What the postgres user must reach was put under the runtime folder, and the output says where.
      const cluster = readFileSync(path.join(checkout, ".data", "postgres-cluster"), "utf8").trim();
      expect(cluster.startsWith(path.join(runtime, "clusters") + "/")).toBe(true);
      expect(first.stderr).toContain(`PostgreSQL data: ${cluster}`);
      expect(first.stderr).toMatch(new RegExp(`PostgreSQL [0-9.a-z-]+ binaries: ${runtime}/pg-`));
      const st = statSync(cluster);
      expect(st.uid).toBe(postgresUid());
      expect(st.mode & 0o777).toBe(0o700); // only that user (and root) can read the data
      const [binaries] = readdirSync(runtime).filter((n) => n.startsWith("pg-"));
      expect(statSync(path.join(runtime, binaries)).uid).toBe(0);
      expect(worldWritable(runtime)).toEqual([]);
    } else {
      expect(statSync(path.join(checkout, ".data", "pg")).uid).toBe(process.getuid!());
    }
    // No parent folder's permissions were changed behind the user's back.
    expect(statSync(base).mode & 0o777).toBe(0o700);
    // The password file is the launching user's alone.
    expect(statSync(path.join(checkout, ".data", "pg-password")).mode & 0o077).toBe(0);

    // A restart finds the same data (the workspace made above), reusing what was placed.
    const second = await runCli(["api-key", "create", "--workspace", "Acme", "--scope", "read", "--json"], { checkout, env });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).key).toMatch(/^ok_live_/);
    if (isRoot) {
      expect(readdirSync(runtime).filter((n) => n.startsWith("pg-"))).toHaveLength(1);
      expect(readdirSync(path.join(runtime, "clusters"))).toHaveLength(1);
    }

    // npm test's database set-up from the same private checkout.
    const suite = await runSmokeSuite(checkout, cleanEnv({ HOME: base, OUTREACH_PG_RUNTIME_DIR: runtime }));
    expect(suite.code, suite.output).toBe(0);
    expect(suite.output).toMatch(/1 passed/);
    if (isRoot) expect(readdirSync(path.join(runtime, "clusters")).filter((n) => n.startsWith("tmp-"))).toEqual([]); // the throw-away cluster is gone
  }, 240_000);
});

describe("first run as an ordinary user in their home folder", () => {
  it("runs the server as that user, and SIGTERM stops worker and database within 10 s", async () => {
    const user = unprivilegedUser();
    const home = privateFolder("outreach-home-", user);
    cleanup.push(home);
    mkdirSync(path.join(home, "app"));
    const checkout = copyCheckout(path.join(home, "app"), user);
    const env = cleanEnv({ HOME: home, EMBEDDED_PG_PORT: String(await freePort()), WORKER_TICK_MS: "500" });

    const worker = startCli(["worker"], { checkout, env, as: user });
    await waitForOutput(worker, (o) => o.stderr.includes("[worker] started"));
    const cluster = path.join(checkout, ".data", "pg");
    expect(statSync(cluster).uid).toBe(user.uid);
    const pgPid = Number(readFileSync(path.join(cluster, "postmaster.pid"), "utf8").split("\n")[0]);
    expect(uidOfProcess(pgPid)).toBe(user.uid);

    const t0 = Date.now();
    worker.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => worker.on("close", r));
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const { stderr } = worker.out();
    expect(stderr.indexOf("worker stopped")).toBeGreaterThan(-1);
    expect(stderr.indexOf("database stopped")).toBeGreaterThan(stderr.indexOf("worker stopped"));
    expect(existsSync(`/proc/${pgPid}`)).toBe(false);

    const suite = await runSmokeSuite(checkout, cleanEnv({ HOME: home }), user);
    expect(suite.code, suite.output).toBe(0);
    expect(suite.output).toMatch(/1 passed/);
  }, 240_000);

  it("a SIGTERM while the worker is still starting (database being prepared) ends it with 0 and leaves no PostgreSQL running", async () => {
    const user = unprivilegedUser();
    const home = privateFolder("outreach-home-", user);
    cleanup.push(home);
    mkdirSync(path.join(home, "app"));
    const checkout = copyCheckout(path.join(home, "app"), user);
    const port = await freePort();
    const env = cleanEnv({ HOME: home, EMBEDDED_PG_PORT: String(port), WORKER_TICK_MS: "500" });

    const worker = startCli(["worker"], { checkout, env, as: user });
    // The line that opens the database's preparation: the embedded server's start and the migrations
    // (seconds on a fresh folder) still lie between it and "[worker] started".
    await waitForOutput(worker, (o) => o.stderr.includes("preparing the embedded PostgreSQL"));
    expect(worker.out().stderr).not.toContain("[worker] started");
    worker.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => worker.on("close", r));
    const { stderr } = worker.out();
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("stopping (SIGTERM while starting)");
    expect(stderr).toContain("database stopped");
    expect(stderr).not.toContain("[worker] started");
    expect(postgresOnPort(port)).toEqual([]);
  }, 240_000);

  it("says in one line that the data folder is not writable", async () => {
    const user = unprivilegedUser();
    const reachable = mkdtempSync(path.join(tmpdir(), "outreach-reachable-"));
    cleanup.push(reachable);
    chmodSync(reachable, 0o755);
    const checkout = copyCheckout(reachable);
    const locked = mkdtempSync(path.join(tmpdir(), "outreach-locked-"));
    cleanup.push(locked);
    chmodSync(locked, 0o555); // readable, not writable (owned by root, or by this user without w)
    const r = await runCli(["migrate"], {
      checkout,
      env: cleanEnv({ HOME: locked, OUTREACH_DATA_DIR: path.join(locked, "data") }),
      as: user,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      `outreach: data folder ${path.join(locked, "data")} is not writable by user ${user.uid} (EACCES) — set OUTREACH_DATA_DIR to a folder you can write`,
    ]);
  }, 60_000);
});

describe("errors at start are one line that says what to do", () => {
  const holders: Server[] = [];
  afterAll(() => {
    for (const s of holders) s.close();
  });

  async function hold(host?: string): Promise<number> {
    const port = await freePort();
    const s = createServer();
    await new Promise<void>((r) => s.listen({ port, host }, () => r()));
    holders.push(s);
    return port;
  }

  it("checks the port before anything is announced or started", async () => {
    for (const host of [undefined, "127.0.0.1"]) {
      const port = await hold(host);
      const data = mkdtempSync(path.join(tmpdir(), "outreach-port-"));
      cleanup.push(data);
      const r = await runCli(["start"], { env: cleanEnv({ PORT: String(port), OUTREACH_DATA_DIR: data }) });
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`^outreach: port ${port} is in use — set PORT=\\d+`));
      expect(r.stderr).not.toContain("dashboard");
      // Nothing was started: no database, no secret written.
      expect(readdirSync(data)).toEqual([]);
    }
  }, 60_000);

  it("names DATABASE_URL and its host, never the password, when the URL is malformed, unreachable or refused", async () => {
    const malformed = await runCli(["migrate"], { env: cleanEnv({ DATABASE_URL: "not a url" }) });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr.trim()).toBe(
      "outreach: DATABASE_URL is not a valid URL — expected postgres://USER:PASSWORD@HOST:5432/DATABASE",
    );

    const wrongScheme = await runCli(["migrate"], { env: cleanEnv({ DATABASE_URL: "mysql://u:p@localhost/x" }) });
    expect(wrongScheme.stderr.trim()).toMatch(
      /^outreach: DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/ \(it starts with mysql:\/\/\)/,
    );

    const unreachable = await runCli(["migrate"], { env: cleanEnv({ DATABASE_URL: "postgres://app:hunter2secret@127.0.0.1:1/outreach" }) });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toBe(
      "outreach: cannot reach the database in DATABASE_URL (127.0.0.1:1): connection refused — is PostgreSQL running and listening there?",
    );

    const admin = new URL(process.env.DATABASE_URL!);
    admin.password = "wrong-password-123";
    const refused = await runCli(["migrate"], { env: cleanEnv({ DATABASE_URL: admin.toString() }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `outreach: PostgreSQL at 127.0.0.1:${admin.port} refused the password for user "postgres" — check the user and password in DATABASE_URL`,
    );
    for (const r of [unreachable, refused]) expect(r.stderr).not.toMatch(/hunter2secret|wrong-password-123/);
  }, 60_000);

  it("refuses a Node.js older than 20 before loading anything", async () => {
    const fake = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'18.19.1'})";
    const r = await runCli(["start"], { nodeArgs: ["--import", fake] });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "outreach: Outreach needs Node.js 20 or newer, this is 18.19.1 — install Node.js 20 LTS or newer (nodejs.org, or nvm install 20)",
    );
  }, 30_000);
});
