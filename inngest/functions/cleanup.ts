import { runCleanup } from "../../lib/retention/cleanup";
import type { JobDef } from "../../lib/jobs/registry";

export const cleanupJob: JobDef = {
  name: "maintenance-cleanup",
  cron: "*/5 * * * *",
  everyMs: 5 * 60_000,
  run: runCleanup,
};
