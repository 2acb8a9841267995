import { runMailboxHealthChecks } from "../../lib/mailboxes/health-check";
import type { JobDef } from "../../lib/jobs/registry";

export const mailboxHealthJob: JobDef = {
  name: "mailbox-health-check",
  cron: "* * * * *",
  everyMs: 15_000,
  run: runMailboxHealthChecks,
};
