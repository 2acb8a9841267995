import { getDb } from "../db/client";
import { currentClock } from "../lib/clock";
import { checkSettings, jobsEnv, workerTickMs } from "../lib/env";
import { jobs } from "./functions";
import { LocalRunner } from "./runner";

/**
 * The worker sidecar. With INNGEST_* set, Inngest drives the functions through /api/inngest and this
 * process only keeps long-lived connections (IMAP, in later issues). Without, its local runner calls
 * the same jobs on their schedule every WORKER_TICK_MS.
 */
export function startWorker(log: (line: string) => void = console.log): { stop(): Promise<void> } {
  checkSettings();
  const inngestDriven = jobsEnv.inngestDriven;
  const runner = new LocalRunner(getDb(), currentClock(), inngestDriven ? [] : jobs, log);
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  const loop = async () => {
    while (!stopped) {
      current = runner.tick().catch((e) => log(`[worker] tick failed: ${(e as Error).message}`));
      await current;
      await new Promise((r) => setTimeout(r, workerTickMs()));
    }
  };
  void loop();
  // A stop sent on seeing this line ends the worker cleanly: the launcher holds SIGTERM and SIGINT from
  // its first step (lib/cli/launch.ts holdStopSignals), before the database and the worker start.
  log(
    `[worker] started (${inngestDriven ? "Inngest drives the jobs" : `local runner, tick ${workerTickMs()} ms`}; jobs: ${jobs.map((j) => j.name).join(", ")})`,
  );
  return {
    async stop() {
      stopped = true;
      await current;
    },
  };
}
