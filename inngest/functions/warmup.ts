import type { JobDef } from "../../lib/jobs/registry";
import { runWarmup } from "../../lib/warmup/job";

/** Warmup: the ramp's days, the network's sends and the planned answers (lib/warmup/job.ts). */
export const warmupJob: JobDef = {
  name: "warmup",
  cron: "* * * * *",
  everyMs: 1_000,
  run: runWarmup,
};
