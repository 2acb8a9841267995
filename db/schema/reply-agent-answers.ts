import { sql } from "drizzle-orm";
import { index, pgEnum, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { replyAgents } from "./reply-agents";
import { replies, sentReplies } from "./inbox";
import { leads } from "./leads";

export const agentReplyKindEnum = pgEnum("agent_reply_kind", ["ANSWER", "FOLLOW_UP"]);
/** PENDING (due at dueAt) → WORKING (leased by one run) → SENT, SKIPPED (with why) or FAILED. Never back to PENDING. */
export const agentReplyStatusEnum = pgEnum("agent_reply_status", ["PENDING", "WORKING", "SENT", "SKIPPED", "FAILED"]);

/**
 * A reply agent's work on one inbound message: its answer, and its one follow-up.
 * The primary key (reply, kind) is what makes "never twice for the same inbound message" hold.
 */
export const agentReplies = pgTable(
  "agent_replies",
  {
    replyId: text("reply_id")
      .notNull()
      .references(() => replies.id, { onDelete: "cascade" }),
    kind: agentReplyKindEnum("kind").notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => replyAgents.id, { onDelete: "cascade" }),
    leadId: text("lead_id").references(() => leads.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id"),
    status: agentReplyStatusEnum("status").notNull().default("PENDING"),
    /** Why it was skipped or failed: INTENT, AGENT_OFF, ANSWERED, NEWER_MESSAGE, LEAD_ANSWERED, NO_PASSAGE, NO_CREDITS, SEND_FAILED, INTERRUPTED. */
    reason: text("reason"),
    detail: text("detail"),
    /** ai (the AI provider wrote it) or fallback (the deterministic template). */
    provider: text("provider"),
    body: text("body"),
    sentReplyId: text("sent_reply_id").references(() => sentReplies.id, { onDelete: "set null" }),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    doneAt: timestamp("done_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.replyId, t.kind] }),
    index("agent_replies_due_idx").on(t.status, t.dueAt),
    index("agent_replies_agent_idx").on(t.agentId, t.createdAt),
    // Deleting a lead or a sent reply cascades here row by row; without these each parent deleted scans the table.
    index("agent_replies_lead_idx").on(t.leadId),
    index("agent_replies_sent_reply_idx").on(t.sentReplyId).where(sql`sent_reply_id is not null`),
  ],
);
