import type { JobDef } from "../../lib/jobs/registry";
import { mailboxesWithDueWork, sendDue } from "../../lib/sending/engine";

/**
 * Send due campaign emails (lib/sending/engine): every second in the sidecar's local runner, every
 * minute under Inngest, where the cron lists the mailboxes with due work and each gets its own run,
 * one at a time per mailbox.
 */
export const sendCampaignEmailsJob: JobDef = {
  name: "send-campaign-emails",
  cron: "* * * * *",
  everyMs: 1_000,
  async run({ db, clock, log }) {
    return { ...(await sendDue(db, clock, { log })) };
  },
  fanOut: {
    event: "outreach/mailbox.send-due",
    list: ({ db, clock }) => mailboxesWithDueWork(db, clock.now()),
    async runOne({ db, clock, log }, mailboxId) {
      return { ...(await sendDue(db, clock, { mailboxIds: [mailboxId], log })) };
    },
  },
};
