import type { JobDef } from "../../lib/jobs/registry";
import { agentWebsiteScanJob } from "./agent-website-scans";
import { agentRepliesJob } from "./agent-replies";
import { blacklistCheckJob } from "./blacklist-checks";
import { cleanupJob } from "./cleanup";
import { copyFatigueJob } from "./copy-fatigue";
import { domainCheckJob } from "./domain-checks";
import { trackingDomainCheckJob } from "./tracking-domain-checks";
import { trackingSettleJob } from "./tracking-settle";
import { finderEnrichJob } from "./finder-enrich";
import { inboxSyncJob } from "./inbox-sync";
import { leadEspClassJob } from "./lead-esp-class";
import { mailboxHealthJob } from "./mailbox-health";
import { oauthBulkJob } from "./oauth-bulk";
import { placementTestsJob } from "./placement-tests";
import { replySendJob } from "./reply-send";
import { sendCampaignEmailsJob } from "./send-campaign-emails";
import { sequenceBranchesJob } from "./sequence-branches";
import { warmupJob } from "./warmup";
import { webhookDispatchJob } from "./webhook-deliveries";

/**
 * The list of background jobs, written once: each job's name, cadence (cron for Inngest, everyMs for
 * the local runner) and fan-out live in its file here; its logic is a plain function in lib/<domain>.
 * Both drivers read this list: the Inngest server (when INNGEST_* is configured, through /api/inngest)
 * and the sidecar's local runner (inngest/worker.ts).
 */
export const jobs: JobDef[] = [
  sendCampaignEmailsJob,
  sequenceBranchesJob,
  inboxSyncJob,
  replySendJob,
  cleanupJob,
  mailboxHealthJob,
  domainCheckJob,
  trackingDomainCheckJob,
  trackingSettleJob,
  leadEspClassJob,
  webhookDispatchJob,
  placementTestsJob,
  blacklistCheckJob,
  warmupJob,
  oauthBulkJob,
  copyFatigueJob,
  agentRepliesJob,
  agentWebsiteScanJob,
  finderEnrichJob,
];
