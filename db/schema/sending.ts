import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";

export const emailStatusEnum = pgEnum("email_status", ["SENDING", "SENT", "BOUNCED", "FAILED"]);
export const bounceTypeEnum = pgEnum("bounce_type", ["HARD", "SOFT"]);

/**
 * Every campaign email, written as SENDING (with its Message-ID) before the SMTP conversation and
 * finished as SENT / BOUNCED / FAILED (architecture: "Sending, exactly once at most"). Rows outlive
 * their lead: the address is kept in `lead_email` and `lead_id` is cleared.
 * The send engine adds the campaign, step and tracking columns.
 *
 * No foreign keys (migrations 0027, 0028): the only writer, the engine's commit (lib/sending/engine/commit.ts),
 * inserts an email only for a campaign_leads row it moves in the same statement (its lead and mailbox),
 * with the claimed mailbox's workspace; per-row FK checks were 40% of that statement. What the keys did
 * on delete is done per statement by triggers: a workspace's emails go with it, a deleted lead's emails
 * keep their row with lead_id null, and a mailbox with emails cannot be deleted (23503, as before).
 */
export const emails = pgTable(
  "emails",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    mailboxId: text("mailbox_id").notNull(),
    leadId: text("lead_id"),
    leadEmail: text("lead_email").notNull(),
    /** Campaign emails carry their campaign and step (text, not foreign keys: sends outlive them). */
    campaignId: text("campaign_id"),
    stepId: text("step_id"),
    stepOrder: integer("step_order"),
    variantGroup: text("variant_group"),
    messageId: text("message_id").notNull(),
    subject: text("subject").notNull(),
    status: emailStatusEnum("status").notNull(),
    bounceType: bounceTypeEnum("bounce_type"),
    smtpCode: text("smtp_code"),
    smtpResponse: text("smtp_response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /**
     * First counted open and first counted click (tracking), each once: a person's hit (classes human
     * and unknown), or any hit when the workspace counts machine engagement. Every count of opens and
     * clicks (stats, analytics, reports, the optimiser, copy fatigue, branches) reads these.
     */
    openedAt: timestamp("opened_at", { withTimezone: true }),
    clickedAt: timestamp("clicked_at", { withTimezone: true }),
    /** First open / click by a machine (privacy prefetch or security scanner), shown beside the counted ones. */
    machineOpenedAt: timestamp("machine_opened_at", { withTimezone: true }),
    machineClickedAt: timestamp("machine_clicked_at", { withTimezone: true }),
    /**
     * What was sent, written when the outcome is recorded (SENT or BOUNCED) so the conversation shows
     * it: the text part as sent, and the HTML part (null when none) without the open pixel
     * and click redirects, so showing our own copy never counts as the lead's open or click. Null on
     * rows written before these columns, and on SENDING / FAILED rows.
     */
    bodyText: text("body_text"),
    bodyHtml: text("body_html"),
  },
  (t) => [
    index("emails_mailbox_idx").on(t.mailboxId, t.createdAt),
    index("emails_lead_idx").on(t.leadId),
    index("emails_campaign_idx").on(t.campaignId, t.createdAt),
    index("emails_step_idx").on(t.stepId),
    index("emails_message_id_idx").on(t.workspaceId, t.messageId),
    /** The retention clean-up finds bodies past their days by this (a row loses it once cleared). */
    index("emails_body_age_idx").on(t.createdAt).where(sql`body_text is not null or body_html is not null`),
    index("emails_machine_hits_idx")
      .on(t.workspaceId, t.campaignId)
      .where(sql`machine_opened_at is not null or machine_clicked_at is not null`),
    /** The analytics triggers read a lead's campaign emails again when one is removed or changed (its latest activity). */
    index("emails_lead_email_idx").on(t.workspaceId, t.leadEmail).where(sql`campaign_id is not null`),
  ],
);

export const emailEventKindEnum = pgEnum("email_event_kind", ["OPEN", "CLICK", "UNSUBSCRIBE"]);
/**
 * Who made a tracking hit: a person; a privacy prefetch that happens whether or not anyone reads
 * (Apple Mail Privacy Protection); a security scanner (gateways that fetch every link on arrival);
 * or unknown (counted as a person). See docs/tracking.md.
 */
export const engagementClassEnum = pgEnum("engagement_class", ["human", "proxy", "scanner", "unknown"]);

/** Every open, click and unsubscribe on a campaign email (the first of each also lands on the email row). */
export const emailEvents = pgTable(
  "email_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    emailId: text("email_id")
      .notNull()
      .references(() => emails.id, { onDelete: "cascade" }),
    kind: emailEventKindEnum("kind").notNull(),
    url: text("url"),
    /** Opens and clicks: the class the hit was settled as (null until settled; null on rows older than classes). */
    class: engagementClassEnum("class"),
    /** What the request showed: its address, user agent and method (GET or HEAD). */
    ip: text("ip"),
    userAgent: text("user_agent"),
    method: text("method"),
    /** The address's network (an IPv4 /24, an IPv6 /48): many leads hit from one network at once is a scanner. */
    ipRange: text("ip_range"),
    /** Why the hit got its class (the rule that decided it), for the engagement view and debugging. */
    reason: text("reason"),
    /**
     * Set when the hit was classified and, when it was the email's first counted or machine hit,
     * written onto the email (with email.opened / email.clicked). Hits wait a few seconds unsettled so
     * a burst (every link of an email, one address range over many leads) is seen whole.
     */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("email_events_email_idx").on(t.emailId),
    /** The retention clean-up's order (oldest hits first). */
    index("email_events_age_idx").on(t.createdAt),
    index("email_events_unsettled_idx").on(t.createdAt).where(sql`settled_at is null`),
    index("email_events_ip_range_idx").on(t.ipRange, t.createdAt),
  ],
);
