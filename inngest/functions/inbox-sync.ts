import { CYCLE_EVERY_MS, runInboxSync } from "../../lib/inbox/sync";
import type { JobDef } from "../../lib/jobs/registry";

/**
 * The reply sync: every due mailbox (each at most every IMAP_POLL_INTERVAL_S), many at once, on the
 * sidecar's kept IMAP connections (lib/inbox/sync/sync-pass.ts). Polled every 5 s by the local runner so a
 * mailbox is read soon after it is due.
 */
export const inboxSyncJob: JobDef = {
  name: "inbox-sync",
  cron: "* * * * *",
  everyMs: CYCLE_EVERY_MS,
  run: (ctx) => runInboxSync(ctx),
};
