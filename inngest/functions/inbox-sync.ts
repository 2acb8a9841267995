import { runInboxSync } from "../../lib/inbox/sync";
import type { JobDef } from "../../lib/jobs/registry";

/**
 * The reply sync: every due mailbox (each at most every IMAP_POLL_INTERVAL_S), on the sidecar's kept
 * IMAP connections. Polled every 5 s by the local runner so a mailbox is read soon after it is due.
 */
export const inboxSyncJob: JobDef = {
  name: "inbox-sync",
  cron: "* * * * *",
  everyMs: 5_000,
  run: (ctx) => runInboxSync(ctx),
};
