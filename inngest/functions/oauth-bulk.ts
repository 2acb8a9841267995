import type { JobDef } from "../../lib/jobs/registry";
import { runOAuthBulk } from "../../lib/mailboxes/oauth-bulk-run";

/** Connects the addresses of queued OAuth bulk connects (POST /mailboxes/oauth/<provider>/bulk); the lease keeps two workers off one job. */
export const oauthBulkJob: JobDef = {
  name: "oauth-bulk",
  cron: "* * * * *",
  everyMs: 5_000,
  run: runOAuthBulk,
};
