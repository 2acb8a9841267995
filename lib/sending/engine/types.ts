import type { campaignLeads, campaignSteps, campaigns, leads, mailboxes } from "../../../db/schema";
import type { Logger } from "../../log";
import type { RenderLead } from "../../templates/render";

/**
 * A mailbox as the engine reads it: what the rules, the templates, the login and the sender use — not
 * the IMAP side, health texts or bookkeeping (the full row cost ~70 µs per mailbox to read and map).
 */
export const MAILBOX_COLUMNS = [
  "id",
  "workspaceId",
  "email",
  "senderName",
  "signatureHtml",
  "authType",
  "smtpHost",
  "smtpPort",
  "smtpSecurity",
  "smtpUsername",
  "smtpPasswordEnc",
  "dailySendCap",
  "sendingEnabled",
  "isSeed",
  "loginFailingSince",
  "autoPausedAt",
  "nextSendAt",
] as const satisfies readonly (keyof typeof mailboxes.$inferSelect)[];
export type Mailbox = Pick<typeof mailboxes.$inferSelect, (typeof MAILBOX_COLUMNS)[number]>;
export type Campaign = typeof campaigns.$inferSelect;
export type Lead = typeof leads.$inferSelect;
export type Step = typeof campaignSteps.$inferSelect;
export type CampaignLeadStatus = (typeof campaignLeads.$inferSelect)["status"];

/**
 * A due campaign lead as the scheduler reads it: the row's state plus what the rules need of the lead.
 * Timestamps are ISO strings as Postgres returns them from a hand-written statement.
 */
export interface DueLead {
  workspaceId: string;
  mailboxId: string;
  campaignId: string;
  leadId: string;
  status: CampaignLeadStatus;
  nextStepOrder: number;
  /** The sequence the lead is in: null for the main sequence, else a subsequence it entered on a branch. */
  subsequenceId: string | null;
  nextSendAt: string | null;
  failedAttempts: number;
  firstEmailedAt: string | null;
  lastEmailedAt: string | null;
  email: string;
  timezone: string | null;
  /** What the templates can use of the lead (read with the claim: no second read of the lead). */
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  companyDomain: string | null;
  jobTitle: string | null;
  phoneNumber: string | null;
  customFields: Lead["customFields"];
}

/** A lead as the sender needs it: its id and what the templates can use. */
export interface SendLead extends RenderLead {
  id: string;
  email: string;
}

/** A file of a step, as the sender attaches it (inline images only when the body shows their cid). */
export interface StepFile {
  stepId: string;
  filename: string;
  contentType: string;
  cid: string | null;
  data: Buffer;
}

/** One email the scheduler committed as SENDING: everything the sender needs, no further reads. */
export interface Work {
  mailbox: Mailbox;
  campaign: Campaign;
  lead: SendLead;
  step: Step;
  /** Steps of the campaign (the next step's delay, and whether one exists). */
  steps: Step[];
  due: DueLead;
  emailId: string;
  messageId: string;
  subject: string;
  /** Message-IDs of the earlier emails of this lead in this campaign, oldest first (threading). */
  references: string[];
  /**
   * Custom-field names known in this campaign (some lead of it has the field): such a token is empty
   * text on a lead without it, exactly as in preview and test sends (one renderer).
   * Only the names the campaign's templates use are looked up, so it is that part of the set.
   */
  knownCustomFields: string[];
  /** The step's files (read with the scheduler's other reads). */
  files: StepFile[];
  /** Where the email's tracking and unsubscribe links point: the campaign's tracking domain, or APP_URL when absent. */
  trackingBase?: string;
}

export interface SendReport {
  mailboxes: number;
  sent: number;
  bounced: number;
  failed: number;
}

export interface SendOptions {
  /** Mailboxes claimed in one pass (default 1,000). */
  mailboxLimit?: number;
  /** Mailboxes claimed per round when the pass may claim more; rounds run on three lanes at once (default 1,000). */
  roundSize?: number;
  /** SMTP conversations in flight at once, one per mailbox (default 32). */
  concurrency?: number;
  /** Only these mailboxes (the Inngest fan-out: one run per mailbox). */
  mailboxIds?: string[];
  /** Where failures are logged (the job's ctx.log; stderr by default). */
  log?: Logger;
}

export type Outcome =
  | { status: "SENT" }
  | { status: "BOUNCED"; bounceType: "HARD" | "SOFT"; code: string; reason: string }
  | { status: "FAILED"; code: string | null; reason: string; auth: boolean };

/**
 * What the email said, kept on its row for the conversation: the text part as sent, and
 * the HTML part without the open pixel and click redirects (viewing our copy is not the lead's open).
 */
export interface SentBody {
  text: string;
  html: string | null;
}

/** A mailbox's lease ends; `at` is its next send time (null keeps the one it has). */
export interface Release {
  id: string;
  at: Date | null;
}
