import { bigint, index, integer, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Exact analytics rollups (see docs/analytics.md, Counters). Maintained by statement-level
 * triggers on `emails` and `replies` (db/migrations/0023_analytics_rollups.sql), in the writing
 * transaction, so they equal COUNT / COUNT(DISTINCT …) on the raw rows at every commit. No foreign
 * keys (a trigger on `workspaces` removes a deleted workspace's rows): a new lead's row costs no check.
 *
 * `analytics_rollups`: sums per (workspace, span, start, campaign, mailbox). Span 0 = a campaign's
 * lifetime (start = epoch) per mailbox; span 1 = a UTC hour and span 2 = a UTC day, workspace-wide
 * (campaign '') per mailbox. Keyed by mailbox so concurrent senders (one per mailbox) rarely share a
 * row. Email columns count emails; lead columns count leads: in span-0 rows a campaign's distinct leads
 * (a lead's first mark in the campaign adds 1, its last removed mark takes 1), in span-1/2 rows the
 * leads whose workspace-wide LAST activity of that kind falls in the bucket (moved when it moves).
 */
export const analyticsRollups = pgTable(
  "analytics_rollups",
  {
    workspaceId: text("workspace_id").notNull(),
    span: smallint("span").notNull(),
    start: timestamp("start", { withTimezone: true }).notNull(),
    campaignId: text("campaign_id").notNull(),
    mailboxId: text("mailbox_id").notNull(),
    sent: integer("sent").notNull().default(0),
    bounced: integer("bounced").notNull().default(0),
    bouncedHard: integer("bounced_hard").notNull().default(0),
    bouncedSoft: integer("bounced_soft").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    contacted: integer("contacted").notNull().default(0),
    opened: integer("opened").notNull().default(0),
    clicked: integer("clicked").notNull().default(0),
    replied: integer("replied").notNull().default(0),
    positive: integer("positive").notNull().default(0),
    /** The latest timestamp counted into the row (only ever raised): a read ending at `to` checks none is ≥ `to`. */
    maxAt: timestamp("max_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.span, t.start, t.campaignId, t.mailboxId] })],
);

/**
 * Per workspace, kind (1 contacted, 2 opened, 3 clicked — by lead address; 4 replied, 5 positive — by
 * lead id) and lead: the lead's latest activity of that kind (null when none is left), and the value
 * before the last change (what the trigger moves the bucket count from).
 */
export const analyticsLeadLast = pgTable(
  "analytics_lead_last",
  {
    workspaceId: text("workspace_id").notNull(),
    metric: smallint("metric").notNull(),
    lead: text("lead").notNull(),
    at: timestamp("at", { withTimezone: true }),
    prevAt: timestamp("prev_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.metric, t.lead] }),
    index("analytics_lead_last_at_idx").on(t.workspaceId, t.metric, t.at),
  ],
);

/** Per campaign, kind and lead: how many of the campaign's rows give the lead that kind (0 → 1 and 1 → 0 move the count). */
export const analyticsCampaignMarks = pgTable(
  "analytics_campaign_marks",
  {
    workspaceId: text("workspace_id").notNull(),
    campaignId: text("campaign_id").notNull(),
    metric: smallint("metric").notNull(),
    lead: text("lead").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.campaignId, t.metric, t.lead] })],
);

/**
 * A workspace's lead count (the overview's totalLeads) as deltas: a trigger on `leads` appends one row
 * per inserting or deleting statement (no row is shared, so concurrent imports never wait on each
 * other), the reader sums them and, past a few dozen, folds them into one row in one statement.
 */
export const analyticsLeadCounts = pgTable(
  "analytics_lead_counts",
  {
    workspaceId: text("workspace_id").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [index("analytics_lead_counts_workspace_idx").on(t.workspaceId)],
);
