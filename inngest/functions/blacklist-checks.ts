import { runBlacklistChecks } from "../../lib/deliverability/blacklist-run";
import type { JobDef } from "../../lib/jobs/registry";

/** Runs queued blacklist check jobs (POST /blacklist/bulk-check); the lease keeps two workers off one job. */
export const blacklistCheckJob: JobDef = {
  name: "blacklist-checks",
  cron: "* * * * *",
  everyMs: 5_000,
  run: runBlacklistChecks,
};
