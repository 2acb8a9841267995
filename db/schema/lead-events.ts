import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { leads } from "./leads";

/**
 * What happened to a lead that no other table remembers: a lead leaving a campaign (`campaign_removed`),
 * a tag taken off (`untagged`), and later a sequence branch taken (`branched`). Each row is written in
 * the same transaction as the change. Everything else on a lead's timeline is read from the tables that
 * hold it (emails, tracking hits, replies, campaign leads, lead tags, suppressions): see
 * lib/leads/timeline.ts.
 *
 * `since` keeps when the removed link was made (the campaign lead's `added_at`, the lead tag's
 * `created_at`), so the timeline still shows the lead being added or tagged once the link row is gone.
 * Campaign, step and tag are kept by id and name without foreign keys: the history outlives them.
 */
export const leadEvents = pgTable(
  "lead_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    /** `campaign_removed`, `untagged` or `branched` (lib/leads/lead-events.ts lists them). */
    kind: text("kind").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    campaignId: text("campaign_id"),
    campaignName: text("campaign_name"),
    stepId: text("step_id"),
    stepOrder: integer("step_order"),
    variantGroup: text("variant_group"),
    tagId: text("tag_id"),
    tagName: text("tag_name"),
    since: timestamp("since", { withTimezone: true }),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("lead_events_lead_idx").on(t.leadId, t.at)],
);
