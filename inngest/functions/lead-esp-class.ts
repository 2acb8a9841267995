import { runLeadEspClass } from "../../lib/campaigns/esp-class";
import type { JobDef } from "../../lib/jobs/registry";

export const leadEspClassJob: JobDef = {
  name: "lead-esp-class",
  cron: "* * * * *",
  everyMs: 30_000,
  run: runLeadEspClass,
};
