import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";

export const verificationStatusEnum = pgEnum("lead_verification_status", [
  "UNVERIFIED",
  "VALID",
  "RISKY",
  "CATCH_ALL",
  "INVALID",
  "UNKNOWN",
]);
export const espClassEnum = pgEnum("esp_class", ["GOOGLE", "MICROSOFT", "YAHOO", "ZOHO", "OTHER", "UNKNOWN"]);

export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    /** Insertion order: the stable newest-first order of GET /leads (spec 4.4). */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    companyName: text("company_name"),
    companyDomain: text("company_domain"),
    phoneNumber: text("phone_number"),
    jobTitle: text("job_title"),
    timezone: text("timezone"),
    customFields: jsonb("custom_fields").$type<Record<string, string>>().notNull().default({}),
    verificationStatus: verificationStatusEnum("verification_status").notNull().default("UNVERIFIED"),
    espClass: espClassEnum("esp_class").notNull().default("UNKNOWN"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The merge key: one lead per address per workspace, whatever the case.
    uniqueIndex("leads_workspace_email_uq").on(t.workspaceId, sql`lower(${t.email})`),
    index("leads_workspace_seq_idx").on(t.workspaceId, t.seq),
  ],
);

export const tags = pgTable(
  "tags",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tags_workspace_name_uq").on(t.workspaceId, sql`lower(${t.name})`)],
);

export const leadTags = pgTable(
  "lead_tags",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    leadId: text("lead_id").notNull().references(() => leads.id, { onDelete: "cascade" }),
    tagId: text("tag_id").notNull().references(() => tags.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.tagId] }), index("lead_tags_tag_idx").on(t.tagId)],
);

export const suppressionKindEnum = pgEnum("suppression_kind", ["email", "domain"]);

/** Addresses and whole domains that are never emailed nor imported (decisions.md, Suppression list). */
export const suppressions = pgTable(
  "suppressions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    kind: suppressionKindEnum("kind").notNull(),
    /** Lower-cased address or domain. */
    value: text("value").notNull(),
    reason: text("reason").notNull().default("manual"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("suppressions_workspace_value_uq").on(t.workspaceId, t.kind, t.value)],
);
