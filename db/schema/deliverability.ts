import { sql } from "drizzle-orm";
import { bigserial, boolean, date, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { mailboxes } from "./mailboxes";

/**
 * Deliverability (see docs/deliverability.md and docs/warmup.md): the warmup ramp and its mail, placement
 * tests against seeds, blacklist check jobs and alerts. Every row is workspace-scoped.
 */

/**
 * A mailbox's warmup ramp, one row from its first start (the status itself is `mailboxes.warmup_status`,
 * shown on every mailbox row). `day_index` counts UTC days of active warmup: `day` is the UTC day it
 * refers to, moved on by the warmup job; a paused ramp keeps both and resumes on the day it reached.
 */
export const mailboxWarmups = pgTable("mailbox_warmups", {
  mailboxId: text("mailbox_id")
    .primaryKey()
    .references(() => mailboxes.id, { onDelete: "cascade" }),
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  dayIndex: integer("day_index").notNull().default(0),
  startingVolume: integer("starting_volume").notNull(),
  dailyIncrease: integer("daily_increase").notNull(),
  targetVolume: integer("target_volume").notNull(),
  replyRateMinPct: integer("reply_rate_min_pct").notNull(),
  replyRateMaxPct: integer("reply_rate_max_pct").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  pausedAt: timestamp("paused_at", { withTimezone: true }),
  /** The UTC day `day_index` refers to (null until the first warmup tick after a start or resume). */
  day: date("day", { mode: "string" }),
  /** The day's first warmup tick: its volume is spread over WARMUP_SPREAD_S from here. */
  dayStartedAt: timestamp("day_started_at", { withTimezone: true }),
  /** One warmup sender per mailbox at a time, across workers. */
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The target of each UTC day of a ramp (the chart's "target" line; sent and replied are counted from the mail). */
export const warmupDays = pgTable(
  "warmup_days",
  {
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    dayIndex: integer("day_index").notNull(),
    target: integer("target").notNull(),
  },
  (t) => [uniqueIndex("warmup_days_pk").on(t.mailboxId, t.day)],
);

export const warmupMailStatusEnum = pgEnum("warmup_mail_status", ["PLANNED", "SENDING", "SENT", "FAILED"]);

/**
 * Every warmup email, a new conversation or an answer in one. Written before the SMTP conversation
 * (SENDING, with its Message-ID; never sent twice), then SENT or FAILED. The receiving side knows
 * warmup mail by this Message-ID — no header marks it. An answer is PLANNED with its `due_at` when
 * the receiving mailbox reads the message, then sent like any other.
 */
export const warmupMessages = pgTable(
  "warmup_messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    fromMailboxId: text("from_mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    /** The partner; null for an installation-wide seed (SEED_POOL_FILE), known by address only. */
    toMailboxId: text("to_mailbox_id").references(() => mailboxes.id, { onDelete: "cascade" }),
    toEmail: text("to_email").notNull(),
    /** The warming mailbox whose ramp this conversation serves (answers count toward its replies). */
    warmingMailboxId: text("warming_mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id").notNull(),
    depth: integer("depth").notNull().default(0),
    messageId: text("message_id").notNull(),
    inReplyTo: text("in_reply_to"),
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    subject: text("subject").notNull(),
    bodyText: text("body_text").notNull(),
    status: warmupMailStatusEnum("status").notNull(),
    /** PLANNED answers: when to send. */
    dueAt: timestamp("due_at", { withTimezone: true }),
    /** The UTC day the email counts in (its sender's day). */
    day: date("day", { mode: "string" }).notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** Seen by the receiving mailbox over IMAP: where it landed and whether it was moved out of spam. */
    receivedAt: timestamp("received_at", { withTimezone: true }),
    receivedFolder: text("received_folder"),
    rescuedFromSpam: boolean("rescued_from_spam").notNull().default(false),
    /** The receiver decided whether to answer (once). */
    answered: boolean("answered"),
  },
  (t) => [
    uniqueIndex("warmup_messages_message_id_uq").on(t.messageId),
    index("warmup_messages_from_day_idx").on(t.fromMailboxId, t.day),
    index("warmup_messages_warming_day_idx").on(t.warmingMailboxId, t.day),
    index("warmup_messages_planned_idx").on(t.dueAt).where(sql`status = 'PLANNED'`),
    index("warmup_messages_unread_idx").on(t.toMailboxId).where(sql`received_at IS NULL AND status = 'SENT'`),
  ],
);

export const placementStatusEnum = pgEnum("placement_status", ["RUNNING", "COMPLETED", "FAILED", "NO_SEED_POOL"]);
export const placementEnum = pgEnum("placement", ["PENDING", "INBOX", "SPAM", "MISSING"]);

/** A placement test: one probe from a mailbox to every seed, read back over IMAP. */
export const placementTests = pgTable(
  "placement_tests",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    batchId: text("batch_id").notNull(),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    status: placementStatusEnum("status").notNull(),
    subject: text("subject").notNull(),
    bodyText: text("body_text").notNull(),
    seedCount: integer("seed_count").notNull().default(0),
    inboxCount: integer("inbox_count").notNull().default(0),
    spamCount: integer("spam_count").notNull().default(0),
    missingCount: integer("missing_count").notNull().default(0),
    gmailTabs: jsonb("gmail_tabs").$type<Record<string, number>>().notNull().default({}),
    error: text("error"),
    /** Seeds are read until then (PLACEMENT_WAIT_S after the probe was sent); what is not found is MISSING. */
    deadlineAt: timestamp("deadline_at", { withTimezone: true }).notNull(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("placement_tests_workspace_idx").on(t.workspaceId, t.seq),
    index("placement_tests_running_idx").on(t.createdAt).where(sql`status = 'RUNNING'`),
    index("placement_tests_mailbox_idx").on(t.mailboxId),
  ],
);

/** One seed's result in a placement test. */
export const placementResults = pgTable(
  "placement_results",
  {
    id: text("id").primaryKey(),
    testId: text("test_id")
      .notNull()
      .references(() => placementTests.id, { onDelete: "cascade" }),
    seedEmail: text("seed_email").notNull(),
    /** The workspace's seed mailbox, or null for an installation-wide seed (SEED_POOL_FILE). */
    seedMailboxId: text("seed_mailbox_id").references(() => mailboxes.id, { onDelete: "set null" }),
    /** The seed's provider class (GOOGLE, MICROSOFT, …): what a spam placement tells the engine. */
    provider: text("provider").notNull(),
    messageId: text("message_id").notNull(),
    placement: placementEnum("placement").notNull().default("PENDING"),
    folder: text("folder"),
    tab: text("tab"),
    sendError: text("send_error"),
    receivedAt: timestamp("received_at", { withTimezone: true }),
  },
  (t) => [
    index("placement_results_test_idx").on(t.testId),
    uniqueIndex("placement_results_message_id_uq").on(t.messageId),
    index("placement_results_seed_mailbox_idx").on(t.seedMailboxId).where(sql`seed_mailbox_id is not null`),
  ],
);

export const jobStatusEnum = pgEnum("job_status", ["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]);

/** A blacklist check job: its targets, progress and the count of listings found. */
export const blacklistJobs = pgTable(
  "blacklist_jobs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    status: jobStatusEnum("status").notNull().default("QUEUED"),
    targets: jsonb("targets").$type<{ target: string; type: "domain" | "ip" }[]>().notNull(),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    listedCount: integer("listed_count").notNull().default(0),
    error: text("error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("blacklist_jobs_open_idx").on(t.createdAt).where(sql`status in ('QUEUED', 'RUNNING')`)],
);

/** One (target, zone) answer of a blacklist job. */
export const blacklistResults = pgTable(
  "blacklist_results",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => blacklistJobs.id, { onDelete: "cascade" }),
    target: text("target").notNull(),
    type: text("type").$type<"domain" | "ip">().notNull(),
    zone: text("zone").notNull(),
    listed: boolean("listed").notNull(),
    /** The zone's answer (127.0.0.x) when listed, the look-up error when it failed, null when not listed. */
    answer: text("answer"),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("blacklist_results_uq").on(t.jobId, t.target, t.zone)],
);

export const alertKindEnum = pgEnum("alert_kind", [
  "BOUNCE_SPIKE",
  "LOGIN_FAILING",
  "READ_FAILING",
  "BLACKLISTED",
  "PLACEMENT_DROP",
  "DNS_FAILING",
]);

/**
 * Deliverability alerts: one open alert per kind and subject (a mailbox id, a domain or an address),
 * raised and resolved by the job that sees the condition, acknowledged by a person.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: alertKindEnum("kind").notNull(),
    severity: text("severity").$type<"critical" | "warning" | "info">().notNull(),
    subject: text("subject").notNull(),
    mailboxId: text("mailbox_id").references(() => mailboxes.id, { onDelete: "cascade" }),
    domain: text("domain"),
    message: text("message").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true }),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("alerts_open_uq").on(t.workspaceId, t.kind, t.subject).where(sql`resolved_at IS NULL`),
    index("alerts_workspace_idx").on(t.workspaceId, t.seq),
    index("alerts_mailbox_idx").on(t.mailboxId),
  ],
);
