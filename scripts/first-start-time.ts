/**
 * npm run bench:first-start — how long a new user waits: a fresh `git clone` of this checkout's
 * committed HEAD into a temporary folder, `npm install` (as the README says), then `npm start` on free
 * ports with the embedded database, until GET /api/health answers ok and GET /login answers 200 (the
 * dashboard answering). Prints each phase's seconds and a final JSON line; stops what it started and
 * deletes the temporary folder and the database's files (also where root had them placed outside it).
 * Target: clone → dashboard answering within 3 minutes on 2 cores.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { removeDataDir, removeTree } from "../test/checkout";
import { freePort } from "../test/peers/ports";
import { loadAverage, runBench, say } from "./bench-util";

const repo = path.resolve(import.meta.dirname, "..");
const TARGET_S = 180;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => Number((ms / 1000).toFixed(1));

/** A person's shell: nothing of this process's database, secrets or URLs. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ["PATH", "HOME", "LANG", "USER", "TMPDIR", "npm_config_cache"];
  const env: Record<string, string> = {};
  for (const k of keep) if (process.env[k]) env[k] = process.env[k];
  // No NODE_ENV, as in a shell (npm install would leave out the dev dependencies with NODE_ENV=production).
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", ...extra } as unknown as NodeJS.ProcessEnv;
}

/** Runs a command to its end, its output appended to `log`; throws with the log's tail on failure. */
function runStep(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const fd = openSync(log, "a");
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", fd, fd] });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}:\n${tail(log)}`));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

async function answers(url: string, ok: (r: Response) => Promise<boolean>): Promise<boolean> {
  try {
    const r = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) });
    return await ok(r);
  } catch {
    return false;
  }
}

/** SIGTERM to the start's process group (npm, the launcher, the web server, PostgreSQL), SIGKILL after 15 s. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const done = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!done) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* gone */
    }
    await exited;
  }
}

runBench("bench:first-start", async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "outreach-first-start-"));
  const clone = path.join(work, "outreach");
  const log = path.join(work, "steps.log");
  let app: ChildProcess | undefined;
  say(`bench:first-start — ${os.availableParallelism()} cores, load ${loadAverage()}, in ${work}`);
  try {
    const t0 = performance.now();
    await runStep("git", ["clone", "--quiet", repo, clone], work, shellEnv({}), log, 300_000);
    const tClone = performance.now();
    say(`  clone            ${seconds(tClone - t0)} s`);
    await runStep("npm", ["install", "--no-audit", "--no-fund"], clone, shellEnv({}), log, 20 * 60_000);
    const tInstall = performance.now();
    say(`  npm install      ${seconds(tInstall - tClone)} s`);

    const port = await freePort();
    const startLog = path.join(work, "start.log");
    const fd = openSync(startLog, "a");
    app = spawn("npm", ["start"], {
      cwd: clone,
      env: shellEnv({ PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) }),
      detached: true,
      stdio: ["ignore", fd, fd],
    });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20 * 60_000;
    let tHealth: number | undefined;
    let tLogin: number | undefined;
    while (tLogin === undefined) {
      if (app.exitCode !== null) throw new Error(`npm start exited with ${app.exitCode}:\n${tail(startLog)}`);
      if (Date.now() > deadline) throw new Error(`the dashboard did not answer within 20 minutes:\n${tail(startLog)}`);
      if (tHealth === undefined) {
        if (await answers(`${base}/api/health`, async (r) => r.ok && (await r.json()).ok === true)) tHealth = performance.now();
      } else if (await answers(`${base}/login`, async (r) => r.status === 200)) tLogin = performance.now();
      if (tLogin === undefined) await sleep(250);
    }
    const built = /dashboard built in (\d+:\d+)/.exec(readFileSync(startLog, "utf8"))?.[1];
    const total = seconds(tLogin - t0);
    say(`  npm start → /api/health ok  ${seconds(tHealth! - tInstall)} s${built ? ` (of which the dashboard build ${built})` : ""}`);
    say(`  /api/health → /login 200    ${seconds(tLogin - tHealth!)} s`);
    say(`  clone → dashboard answering ${total} s (target ≤ ${TARGET_S} s: ${total <= TARGET_S ? "PASS" : "BELOW TARGET"})`);
    say(`  load ${loadAverage()}`);
    say(
      JSON.stringify({
        bench: "first-start",
        cores: os.availableParallelism(),
        cloneS: seconds(tClone - t0),
        installS: seconds(tInstall - tClone),
        startToHealthS: seconds(tHealth! - tInstall),
        build: built ?? null,
        healthToLoginS: seconds(tLogin - tHealth!),
        totalS: total,
        targetS: TARGET_S,
      }),
    );
  } finally {
    if (app) await stopGroup(app);
    removeDataDir(path.join(clone, ".data"));
    removeTree(work);
  }
});
