import { doublePrecision, index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { campaignSteps, campaigns } from "./campaigns";

export const fatigueStatusEnum = pgEnum("copy_fatigue_status", ["OK", "FATIGUED", "DISMISSED"]);

/**
 * When each campaign's steps were last scanned for copy fatigue, and the lease of the
 * hourly job scanning it (two runners never scan one campaign at once).
 */
export const copyFatigueScans = pgTable(
  "copy_fatigue_scans",
  {
    campaignId: text("campaign_id")
      .primaryKey()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    lastScanAt: timestamp("last_scan_at", { withTimezone: true }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
  },
  (t) => [index("copy_fatigue_scans_due_idx").on(t.lastScanAt)],
);

/**
 * The last verdict for each step (each variant is its own step row) by the copy-fatigue rule (lib/copy-fatigue/rule.ts), over the
 * sends of the step's current body: `bodyHash` is the hash of subject + body the verdict was made for,
 * `bodySince` when that body started (null: since the step's first send). A dismissal remembers the
 * reasons it dismissed; the step is flagged again only for a new reason or a changed body.
 */
export const copyFatigueSteps = pgTable(
  "copy_fatigue_steps",
  {
    stepId: text("step_id")
      .primaryKey()
      .references(() => campaignSteps.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    status: fatigueStatusEnum("status").notNull().default("OK"),
    sends: integer("sends").notNull().default(0),
    leads: integer("leads").notNull().default(0),
    firstRate: doublePrecision("first_rate"),
    recentRate: doublePrecision("recent_rate"),
    /** RATE_DROP and/or BODY_OVERUSED. */
    reasons: text("reasons").array().notNull().default([]),
    dismissedReasons: text("dismissed_reasons").array().notNull().default([]),
    bodyHash: text("body_hash").notNull(),
    bodySince: timestamp("body_since", { withTimezone: true }),
    flaggedAt: timestamp("flagged_at", { withTimezone: true }),
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }),
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("copy_fatigue_steps_campaign_idx").on(t.campaignId)],
);
