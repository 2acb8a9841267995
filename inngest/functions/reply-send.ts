import { sendQueuedReplies } from "../../lib/inbox/send-reply";
import type { JobDef } from "../../lib/jobs/registry";

/** Background replies (`background: true`): sent every second by the local runner; a failed one is never resent on its own. */
export const replySendJob: JobDef = {
  name: "send-replies",
  cron: "* * * * *",
  everyMs: 1_000,
  run: ({ db, clock }) => sendQueuedReplies(db, clock),
};
