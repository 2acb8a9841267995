import { runFinderEnrich } from "../../lib/finder/enrich-run";
import type { JobDef } from "../../lib/jobs/registry";

/**
 * Works open finder enrichment and lead verification jobs (POST /finder/enrich, POST /leads verify):
 * SMTP verification per person under the job's lease; greylisted people wait for their next attempt.
 */
export const finderEnrichJob: JobDef = {
  name: "finder-enrich",
  cron: "* * * * *",
  everyMs: 5_000,
  run: runFinderEnrich,
};
