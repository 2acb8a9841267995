import type { JobDef } from "../../lib/jobs/registry";
import { runPlacementReads } from "../../lib/placement/run";

/** Reads the seeds of running placement tests (each test at most every 30 s, leased) and finishes them. */
export const placementTestsJob: JobDef = {
  name: "placement-tests",
  cron: "* * * * *",
  everyMs: 15_000,
  run: runPlacementReads,
};
