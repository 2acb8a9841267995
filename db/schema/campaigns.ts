import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { leads } from "./leads";
import { mailboxes } from "./mailboxes";
import { trackingDomains } from "./tracking-domains";

/** A branch rule as stored; its shape is checked where it is written (lib/campaigns/branches.ts). */
type StoredRule = { when: Record<string, unknown>; action: StoredAction };
type StoredAction = { type: string } & Record<string, unknown>;

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

export const campaignStatusEnum = pgEnum("campaign_status", ["DRAFT", "ACTIVE", "PAUSED", "ARCHIVED"]);
export const espMatchingEnum = pgEnum("esp_matching", ["OFF", "PREFER", "STRICT"]);
export const campaignLeadStatusEnum = pgEnum("campaign_lead_status", [
  "ACTIVE",
  "COMPLETED",
  "REPLIED",
  "BOUNCED",
  "UNSUBSCRIBED",
  "STOPPED",
]);

export const campaigns = pgTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: campaignStatusEnum("status").notNull().default("DRAFT"),
    folder: text("folder"),
    sendWindowStartHour: integer("send_window_start_hour").notNull().default(9),
    sendWindowEndHour: integer("send_window_end_hour").notNull().default(17),
    sendDaysOfWeek: integer("send_days_of_week").array().notNull().default(sql`'{1,2,3,4,5}'::integer[]`),
    startAt: timestamp("start_at", { withTimezone: true }),
    dailyNewLeadCap: integer("daily_new_lead_cap"),
    defaultTimezone: text("default_timezone"),
    abVariantOptimization: boolean("ab_variant_optimization").notNull().default(false),
    trackOpens: boolean("track_opens").notNull().default(false),
    trackClicks: boolean("track_clicks").notNull().default(false),
    stopOnReply: boolean("stop_on_reply").notNull().default(true),
    stopOnAutoReply: boolean("stop_on_auto_reply").notNull().default(false),
    unsubscribeHeader: boolean("unsubscribe_header").notNull().default(true),
    textOnly: boolean("text_only").notNull().default(false),
    espMatching: espMatchingEnum("esp_matching").notNull().default("OFF"),
    minGapMinutes: doublePrecision("min_gap_minutes").notNull().default(9),
    /** Skip public holidays in each lead's country (its `country` custom field, else its timezone's country). */
    skipHolidays: boolean("skip_holidays").notNull().default(false),
    /** YYYY-MM-DD days, in each lead's zone, on which the campaign sends nothing. */
    blackoutDates: text("blackout_dates").array().notNull().default(sql`'{}'::text[]`),
    /** An out-of-office reply pauses the lead until the return date it names (else oooDefaultPauseDays). */
    oooResume: boolean("ooo_resume").notNull().default(true),
    oooDefaultPauseDays: integer("ooo_default_pause_days").notNull().default(7),
    /** The workspace tracking domain this campaign's links use (null: the workspace default, else APP_URL's host). */
    trackingDomainId: text("tracking_domain_id").references(() => trackingDomains.id, { onDelete: "set null" }),
    /** Set by the first real send; a DRAFT without it has "never sent". */
    firstSentAt: timestamp("first_sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("campaigns_workspace_idx").on(t.workspaceId, t.seq)],
);

/** A sequence step; steps with the same order and different variantGroup are A/B variants. */
export const campaignSteps = pgTable(
  "campaign_steps",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    stepOrder: integer("step_order").notNull(),
    /** "" for a step without variants; otherwise the variant's label (A, B, …). */
    variantGroup: text("variant_group").notNull().default(""),
    subject: text("subject"),
    bodyTemplate: text("body_template").notNull().default(""),
    bodyHtmlTemplate: text("body_html_template"),
    delayHoursAfterPrevious: doublePrecision("delay_hours_after_previous"),
    /** The subsequence this step belongs to; null for the campaign's main sequence. */
    subsequenceId: text("subsequence_id").references(() => campaignSubsequences.id, { onDelete: "cascade" }),
    /** Rules read in order once the step is sent: what the lead did decides where it goes (campaigns/branches.ts). */
    branches: jsonb("branches").$type<StoredRule[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One step per order and variant in each sequence (the main sequence is the null subsequence).
    uniqueIndex("campaign_steps_order_variant_uq").on(t.campaignId, sql`coalesce(${t.subsequenceId}, '')`, t.stepOrder, t.variantGroup),
    /** Deleting a subsequence cascades to its steps. */
    index("campaign_steps_subsequence_idx").on(t.subsequenceId).where(sql`subsequence_id is not null`),
  ],
);

/**
 * A named sequence inside a campaign, entered on a branch. `same` threading continues the lead's thread
 * (Re: + the first subject, In-Reply-To/References); `new` starts a thread with the step's own subject.
 */
export const campaignSubsequences = pgTable(
  "campaign_subsequences",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    threading: text("threading").$type<"same" | "new">().notNull().default("same"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("campaign_subsequences_campaign_idx").on(t.campaignId)],
);

/**
 * A branch a lead took after a step: written once (the unique key), in the same transaction as its
 * effect, so a crash between decision and effect applies neither and a retry applies both once.
 */
export const leadBranches = pgTable(
  "lead_branches",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    stepId: text("step_id").notNull(),
    /** The rule's position in the step's list; null when no rule said yes and the default applied. */
    ruleIndex: integer("rule_index"),
    rule: text("rule").notNull(),
    action: jsonb("action").$type<StoredAction>().notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.leadId, t.stepId] }),
    index("lead_branches_step_idx").on(t.stepId),
    /** Deleting a lead cascades here row by row (the primary key leads with the campaign). */
    index("lead_branches_lead_idx").on(t.leadId),
  ],
);

/** Bytes in Postgres (architecture: Files), so web and worker on different machines see the same files. */
export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    data: bytea("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("files_workspace_idx").on(t.workspaceId)],
);

export const stepAttachments = pgTable(
  "step_attachments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    stepId: text("step_id")
      .notNull()
      .references(() => campaignSteps.id, { onDelete: "cascade" }),
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /** Set for inline images: the body shows them as <img src="cid:…">. */
    cid: text("cid"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("step_attachments_step_idx").on(t.stepId), index("step_attachments_file_idx").on(t.fileId)],
);

/** The campaign's mailbox pool. */
export const campaignMailboxes = pgTable(
  "campaign_mailboxes",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.mailboxId] }), index("campaign_mailboxes_mailbox_idx").on(t.mailboxId)],
);

/**
 * A lead in a campaign: its assigned mailbox, next step and when it is due (architecture: per-lead
 * delays are columns, not sleeps).
 */
export const campaignLeads = pgTable(
  "campaign_leads",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    mailboxId: text("mailbox_id").references(() => mailboxes.id, { onDelete: "set null" }),
    status: campaignLeadStatusEnum("status").notNull().default("ACTIVE"),
    nextStepOrder: integer("next_step_order").notNull().default(0),
    nextSendAt: timestamp("next_send_at", { withTimezone: true }),
    /** When this campaign first emailed the lead: after it, reassigning no longer moves the lead. */
    firstEmailedAt: timestamp("first_emailed_at", { withTimezone: true }),
    lastEmailedAt: timestamp("last_emailed_at", { withTimezone: true }),
    /** Sends refused at send time for the current step (retried with backoff, then the lead stops). */
    failedAttempts: integer("failed_attempts").notNull().default(0),
    /** Where the lead is: null for the main sequence, else the subsequence it entered on a branch. */
    subsequenceId: text("subsequence_id").references(() => campaignSubsequences.id, { onDelete: "set null" }),
    /** The sent step whose branch rules are not decided yet (nextSendAt is when to look again). */
    branchStepId: text("branch_step_id"),
    /** Paused (out of office, or a wait branch): nothing is sent before this moment. */
    pausedUntil: timestamp("paused_until", { withTimezone: true }),
    pauseReason: text("pause_reason"),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.leadId] }),
    index("campaign_leads_lead_idx").on(t.leadId),
    index("campaign_leads_mailbox_idx").on(t.mailboxId),
    /** The scheduler's read: a mailbox's due leads in order (engine.ts scheduleDue). */
    index("campaign_leads_mailbox_due_idx").on(t.mailboxId, t.nextSendAt.asc().nullsFirst(), t.seq).where(sql`status = 'ACTIVE'`),
    /** Deleting a subsequence sets its leads back to null, row by row. */
    index("campaign_leads_subsequence_idx").on(t.subsequenceId).where(sql`subsequence_id is not null`),
  ],
);
