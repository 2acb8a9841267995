import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
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
    /** Insertion order: the stable newest-first order of GET /leads. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
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
    // ESP classification (lib/leads/esp-class.ts): the UNKNOWN leads by domain, and a domain's leads of one class.
    index("leads_esp_class_domain_idx").on(t.espClass, sql`lower(split_part(${t.email}, '@', 2))`),
    // GET /leads?q=: trigrams of the searched text (lib/leads/read-leads.ts SEARCH_TEXT, the same expression), for ilike '%…%'.
    index("leads_search_trgm_idx").using(
      "gin",
      sql`(${t.email} || ' ' || coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, '') || ' ' || coalesce(${t.companyName}, '')) gin_trgm_ops`,
    ),
  ],
);

/**
 * The ESP class of each lead address domain, looked up once for all workspaces (MX records are public):
 * 100,000 leads at one domain cost one DNS look-up. `checked_at` is the last answer (null: never
 * answered); `next_check_at` is when the job may look again (a claim, a retry after a failure, or the
 * 30-day re-check). A failed look-up keeps the previous class (UNKNOWN the first time) — see esp-class.ts.
 */
export const leadDomains = pgTable(
  "lead_domains",
  {
    domain: text("domain").primaryKey(),
    espClass: espClassEnum("esp_class").notNull().default("UNKNOWN"),
    /** The most preferred MX host of the last answer; null when the domain has none or is known by name (gmail.com …). */
    mx: text("mx"),
    /** The last failed look-up's error (timeout, SERVFAIL …); null after an answer. */
    error: text("error"),
    /** Failed look-ups in a row (the retry back-off). */
    failures: integer("failures").notNull().default(0),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("lead_domains_next_check_idx").on(t.nextCheckAt)],
);

export const tags = pgTable(
  "tags",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tags_workspace_name_uq").on(t.workspaceId, sql`lower(${t.name})`)],
);

export const leadTags = pgTable(
  "lead_tags",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.tagId] }), index("lead_tags_tag_idx").on(t.tagId)],
);

export const suppressionKindEnum = pgEnum("suppression_kind", ["email", "domain"]);

/** Addresses and whole domains that are never emailed nor imported. */
export const suppressions = pgTable(
  "suppressions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: suppressionKindEnum("kind").notNull(),
    /** Lower-cased address or domain. */
    value: text("value").notNull(),
    reason: text("reason").notNull().default("manual"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("suppressions_workspace_value_uq").on(t.workspaceId, t.kind, t.value)],
);
