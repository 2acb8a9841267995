import { scanDueCampaigns } from "../../lib/copy-fatigue/job";
import type { JobDef } from "../../lib/jobs/registry";

/** Copy fatigue: each ACTIVE or PAUSED campaign's steps are scanned hourly; the run looks for due ones every minute. */
export const copyFatigueJob: JobDef = {
  name: "copy-fatigue",
  cron: "*/5 * * * *",
  everyMs: 60_000,
  run: scanDueCampaigns,
};
