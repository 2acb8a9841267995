import { runTrackingDomainChecks } from "../../lib/domains/tracking-recheck";
import type { JobDef } from "../../lib/jobs/registry";

/** Verified tracking domains are checked again hourly (each run takes the ones due); a vanished CNAME turns one FAILING. */
export const trackingDomainCheckJob: JobDef = {
  name: "tracking-domain-checks",
  cron: "*/10 * * * *",
  everyMs: 60_000,
  run: runTrackingDomainChecks,
};
