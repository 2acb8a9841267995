import { runCleanup } from "../../lib/retention/cleanup";
import type { JobDef } from "../../lib/jobs/registry";

/** Retention (lib/retention/cleanup.ts): every 5 minutes, at most RETENTION_BATCH rows of each kind, one run at a time. */
export const cleanupJob: JobDef = {
  name: "maintenance-cleanup",
  cron: "*/5 * * * *",
  everyMs: 5 * 60_000,
  run: (ctx) => runCleanup(ctx),
};
