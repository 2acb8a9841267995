import { runDomainChecks } from "../../lib/domains/domains";
import type { JobDef } from "../../lib/jobs/registry";

export const domainCheckJob: JobDef = {
  name: "domain-checks",
  cron: "*/10 * * * *",
  everyMs: 60_000,
  run: runDomainChecks,
};
