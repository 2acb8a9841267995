import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { tags } from "./leads";

export const securityEnum = pgEnum("mail_security", ["SSL", "STARTTLS", "NONE"]);
export const providerEnum = pgEnum("mail_provider", ["GOOGLE", "MICROSOFT", "YAHOO", "ZOHO", "ICLOUD", "FASTMAIL", "CUSTOM"]);
export const authTypeEnum = pgEnum("mailbox_auth_type", ["PASSWORD", "OAUTH"]);
export const warmupStatusEnum = pgEnum("warmup_status", ["OFF", "EARLY", "RAMPING", "STEADY", "PAUSED", "AUTO_PAUSED"]);
export const checkStatusEnum = pgEnum("check_status", ["PASS", "WARN", "FAIL", "MISSING", "UNCHECKED"]);

/** A sending domain: one per mailbox address domain, with its deliverability checks. */
export const domains = pgTable(
  "domains",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    domain: text("domain").notNull(),
    /** Extra DKIM selectors to look for, beside the provider's usual ones. */
    dkimSelectors: text("dkim_selectors").array().notNull().default(sql`'{}'::text[]`),
    spfStatus: checkStatusEnum("spf_status").notNull().default("UNCHECKED"),
    dkimStatus: checkStatusEnum("dkim_status").notNull().default("UNCHECKED"),
    dmarcStatus: checkStatusEnum("dmarc_status").notNull().default("UNCHECKED"),
    mxStatus: checkStatusEnum("mx_status").notNull().default("UNCHECKED"),
    blacklistStatus: checkStatusEnum("blacklist_status").notNull().default("UNCHECKED"),
    checks: jsonb("checks").$type<Record<string, unknown>>().notNull().default({}),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("domains_workspace_domain_uq").on(t.workspaceId, t.domain), index("domains_check_due_idx").on(t.lastCheckedAt)],
);

export const mailboxes = pgTable(
  "mailboxes",
  {
    id: text("id").primaryKey(),
    seq: integer("seq").generatedAlwaysAsIdentity(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    domainId: text("domain_id")
      .notNull()
      .references(() => domains.id),
    email: text("email").notNull(),
    senderName: text("sender_name"),
    signatureHtml: text("signature_html"),
    provider: providerEnum("provider").notNull(),
    /** GOOGLE/MICROSOFT/YAHOO/ZOHO/OTHER: from the preset or the domain's MX (ESP matching). */
    espClass: text("esp_class").notNull().default("UNKNOWN"),
    authType: authTypeEnum("auth_type").notNull().default("PASSWORD"),
    smtpHost: text("smtp_host").notNull(),
    smtpPort: integer("smtp_port").notNull(),
    smtpSecurity: securityEnum("smtp_security").notNull(),
    smtpUsername: text("smtp_username").notNull(),
    /** AES-256-GCM sealed (lib/crypto/secretbox). Never leaves through a route. */
    smtpPasswordEnc: text("smtp_password_enc").notNull(),
    imapHost: text("imap_host").notNull(),
    imapPort: integer("imap_port").notNull(),
    imapSecurity: securityEnum("imap_security").notNull(),
    imapUsername: text("imap_username").notNull(),
    imapPasswordEnc: text("imap_password_enc").notNull(),
    dailySendCap: integer("daily_send_cap").notNull().default(20),
    sendingEnabled: boolean("sending_enabled").notNull().default(true),
    assumedWarm: boolean("assumed_warm").notNull().default(false),
    warmupGroup: text("warmup_group"),
    warmupStatus: warmupStatusEnum("warmup_status").notNull().default("OFF"),
    /** A seed of its workspace: receives placement probes and warmup, never sends campaign email. */
    isSeed: boolean("is_seed").notNull().default(false),
    /** Health: set and cleared by the periodic check. */
    loginFailingSince: timestamp("login_failing_since", { withTimezone: true }),
    loginError: text("login_error"),
    readFailingSince: timestamp("read_failing_since", { withTimezone: true }),
    readError: text("read_error"),
    autoPausedAt: timestamp("auto_paused_at", { withTimezone: true }),
    autoPauseReason: text("auto_pause_reason"),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    /** Pacing: the earliest time this mailbox sends its next campaign email (a gap with jitter). */
    nextSendAt: timestamp("next_send_at", { withTimezone: true }),
    /** A sender holds the mailbox until then (one send at a time per mailbox, across workers). */
    sendLeaseUntil: timestamp("send_lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("mailboxes_workspace_email_uq").on(t.workspaceId, sql`lower(${t.email})`),
    index("mailboxes_domain_idx").on(t.domainId),
    index("mailboxes_check_due_idx").on(t.lastCheckedAt),
    // The send claim's walk: sendable mailboxes in pacing order (lib/sending/engine/claim.ts).
    index("mailboxes_send_due_idx")
      .on(sql`coalesce(${t.nextSendAt}, '-infinity'::timestamptz)`)
      .where(sql`sending_enabled and not is_seed and login_failing_since is null and auto_paused_at is null`),
  ],
);

export const mailboxTags = pgTable(
  "mailbox_tags",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mailboxId, t.tagId] }), index("mailbox_tags_tag_idx").on(t.tagId)],
);
