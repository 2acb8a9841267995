import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const bin = path.resolve(import.meta.dirname, "..", "bin", "outreach.mjs");

/** The real sidecar, as `outreach worker` runs it, on this test's database (the environment's DATABASE_URL). */
export function startWorker(env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [bin, "worker"], { env: { ...process.env, WORKER_TICK_MS: "20", ...env }, stdio: "ignore" });
}

/**
 * SIGKILL (no clean-up of any kind) and wait until the process is gone. A worker that already exited
 * on its own (a slow start under load can make it give up) is not waited for: its `exit` event has
 * fired already and would never come again.
 */
export async function killWorker(w: ChildProcess): Promise<void> {
  if (w.exitCode !== null || w.signalCode !== null) return;
  const exited = new Promise((r) => w.once("exit", r));
  w.kill("SIGKILL");
  await exited;
}
