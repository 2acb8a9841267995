import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { leads } from "./leads";
import { mailboxes } from "./mailboxes";

export const intentEnum = pgEnum("reply_intent", [
  "UNCLASSIFIED",
  "INTERESTED",
  "NOT_INTERESTED",
  "OUT_OF_OFFICE",
  "WRONG_PERSON",
  "UNSUBSCRIBE_REQUEST",
  "QUESTION",
]);

export type Address = { name: string | null; address: string };

/**
 * A message received in a mailbox: a lead's reply, a colleague answering for them, or —
 * with no lead — an unmatched message kept for the user to see. Deleted with its lead.
 */
export const replies = pgTable(
  "replies",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    leadId: text("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id"),
    /** The campaign email this answers, when threading headers say so. */
    emailId: text("email_id"),
    messageId: text("message_id").notNull(),
    inReplyTo: text("in_reply_to"),
    references: text("references").array().notNull().default([]),
    from: jsonb("from").$type<Address>(),
    to: jsonb("to").$type<Address[]>().notNull().default([]),
    cc: jsonb("cc").$type<Address[]>().notNull().default([]),
    subject: text("subject").notNull().default(""),
    textBody: text("text_body").notNull().default(""),
    htmlBody: text("html_body"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    intent: intentEnum("intent").notNull().default("UNCLASSIFIED"),
    isAutoReply: boolean("is_auto_reply").notNull().default(false),
    readAt: timestamp("read_at", { withTimezone: true }),
    starred: boolean("starred").notNull().default(false),
    remindAt: timestamp("remind_at", { withTimezone: true }),
    folder: text("folder").notNull().default("INBOX"),
    imapUid: integer("imap_uid"),
    /** The return date an out-of-office reply names (YYYY-MM-DD), and the sentence it was read from. */
    returnDate: text("return_date"),
    returnDateText: text("return_date_text"),
    /** Whom a wrong-person reply points to instead, when it names someone. */
    referral: jsonb("referral").$type<{ email?: string; name?: string; text: string }>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("replies_mailbox_message_uq").on(t.mailboxId, t.messageId),
    index("replies_workspace_received_idx").on(t.workspaceId, t.receivedAt),
    index("replies_lead_idx").on(t.leadId),
    index("replies_email_idx").on(t.emailId),
  ],
);

/** Where IMAP sync stopped in each folder of each mailbox (incremental by UIDVALIDITY + UID). */
export const imapState = pgTable(
  "imap_state",
  {
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    folder: text("folder").notNull(),
    uidValidity: text("uid_validity").notNull(),
    lastUid: integer("last_uid").notNull().default(0),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    leasedUntil: timestamp("leased_until", { withTimezone: true }),
  },
  (t) => [uniqueIndex("imap_state_mailbox_folder_uq").on(t.mailboxId, t.folder)],
);

export const replySendStatusEnum = pgEnum("reply_send_status", ["SENDING", "SENT", "FAILED"]);
export const sentByEnum = pgEnum("sent_by", ["HUMAN", "API", "AGENT"]);

/** Our own replies in a conversation: written before sending, shown at once. */
export const sentReplies = pgTable(
  "sent_replies",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    mailboxId: text("mailbox_id")
      .notNull()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    leadId: text("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    replyId: text("reply_id"),
    to: jsonb("to").$type<Address[]>().notNull(),
    cc: jsonb("cc").$type<Address[]>().notNull().default([]),
    bcc: jsonb("bcc").$type<Address[]>().notNull().default([]),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    html: text("html"),
    status: replySendStatusEnum("status").notNull(),
    error: text("error"),
    smtpCode: text("smtp_code"),
    sentBy: sentByEnum("sent_by").notNull(),
    /** The dashboard user who sent it (null for API, agent and older replies). */
    sentByUserId: text("sent_by_user_id"),
    messageId: text("message_id").notNull(),
    inReplyTo: text("in_reply_to"),
    references: text("references").array().notNull().default([]),
    background: boolean("background").notNull().default(false),
    /** When the current (first or retried) send started: SENDING older than 10 minutes shows as FAILED. */
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull(),
    leasedUntil: timestamp("leased_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sent_replies_lead_idx").on(t.leadId),
    index("sent_replies_sending_idx").on(t.status, t.queuedAt),
    index("sent_replies_mailbox_idx").on(t.mailboxId),
  ],
);

/** AI credits used per workspace per calendar month (UTC). */
export const aiUsage = pgTable(
  "ai_usage",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [uniqueIndex("ai_usage_workspace_month_uq").on(t.workspaceId, t.month)],
);

/**
 * Files of messages: those received with a reply (≤ 15 MB each, 25 MB per message, inline images
 * skipped), those sent with our replies, and uploads waiting to be sent (removed after a day unused).
 */
export const messageFiles = pgTable(
  "message_files",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    replyId: text("reply_id").references(() => replies.id, { onDelete: "cascade" }),
    sentReplyId: text("sent_reply_id").references(() => sentReplies.id, { onDelete: "cascade" }),
    /** An upload not yet sent with a reply. */
    upload: boolean("upload").notNull().default(false),
    fileId: text("file_id").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    cid: text("cid"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("message_files_reply_idx").on(t.replyId), index("message_files_sent_idx").on(t.sentReplyId)],
);
