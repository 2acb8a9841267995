import { getDb } from "../db/client";
import { currentClock } from "../lib/clock";
import { workerTickMs } from "../lib/env";
import { jobs } from "./functions";
import { LocalRunner } from "./runner";

/**
 * The worker sidecar. With INNGEST_* set, Inngest drives the functions through /api/inngest and this
 * process only keeps long-lived connections (IMAP, in later issues). Without, its local runner calls
 * the same jobs on their schedule every WORKER_TICK_MS.
 */
export function startWorker(log: (line: string) => void = console.log): { stop(): Promise<void> } {
  const inngestDriven = Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_SIGNING_KEY || process.env.INNGEST_BASE_URL);
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
  // "started" is the line operators and tests wait for before they may stop the worker, so it is written
  // on the next turn of the event loop: by then the caller (the launcher's supervise) has set up its
  // SIGTERM and SIGINT handling, and a stop sent on seeing the line ends the worker cleanly, never by
  // the signal's default action.
  setImmediate(() =>
    log(
      `[worker] started (${inngestDriven ? "Inngest drives the jobs" : `local runner, tick ${workerTickMs()} ms`}; jobs: ${jobs.map((j) => j.name).join(", ")})`,
    ),
  );
  return {
    async stop() {
      stopped = true;
      await current;
    },
  };
}
