import { cleanupJob } from "../../lib/jobs/cleanup";
import { domainCheckJob } from "../../lib/domains/domains";
import { mailboxHealthJob } from "../../lib/mailboxes/health-check";
import { leadEspClassJob } from "../../lib/leads/esp-class";
import type { JobDef } from "../../lib/jobs/registry";
import { replySendJob } from "../../lib/inbox/send-reply";
import { inboxSyncJob } from "../../lib/inbox/sync";
import { sendCampaignEmailsJob } from "../../lib/sending/engine";
import { webhookDispatchJob } from "../../lib/webhooks/deliver";

/**
 * The list of background jobs, written once. Both drivers read it: the Inngest server (when
 * INNGEST_* is configured, through /api/inngest) and the sidecar's local runner (inngest/worker.ts).
 */
export const jobs: JobDef[] = [
  sendCampaignEmailsJob,
  inboxSyncJob,
  replySendJob,
  cleanupJob,
  mailboxHealthJob,
  domainCheckJob,
  leadEspClassJob,
  webhookDispatchJob,
];
