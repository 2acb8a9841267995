import { sql } from "drizzle-orm";
import { bigserial, boolean, customType, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { jobStatusEnum } from "./deliverability";
import { espClassEnum, verificationStatusEnum } from "./leads";

/**
 * Lead finder (see docs/finder.md): the workspace's `directory` of people, imported as
 * CSV or JSON, searched with one index per filter, and enrichment jobs that find and verify work emails.
 * Filter values are stored normalised (lib/finder/vocabulary.ts): seniority, department and company size
 * from fixed lists, industry and technologies lower-case, the company domain lower-case, countries by
 * their canonical English name — so every filter is an equality (btree) or an array overlap (GIN).
 */

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const finderPeople = pgTable(
  "finder_people",
  {
    id: text("id").primaryKey(),
    /** Import order: the stable order of search results (newest last), and a cheap top-N for wide filters. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    firstName: text("first_name"),
    lastName: text("last_name"),
    title: text("title"),
    seniority: text("seniority"),
    department: text("department"),
    companyName: text("company_name"),
    companyDomain: text("company_domain"),
    industry: text("industry"),
    companySize: text("company_size"),
    country: text("country"),
    city: text("city"),
    linkedinUrl: text("linkedin_url"),
    technologies: text("technologies").array().notNull().default(sql`'{}'::text[]`),
    /** A known or found work email (imported, or written by an enrichment job) and its verdict. */
    email: text("email"),
    verificationStatus: verificationStatusEnum("verification_status").notNull().default("UNVERIFIED"),
    espClass: espClassEnum("esp_class").notNull().default("UNKNOWN"),
    /** Words of the title alone: the `titles` filter (prefix match of every word, lib/finder/search.ts). */
    titleTsv: tsvector("title_tsv").generatedAlwaysAs(sql`to_tsvector('simple', coalesce(title, ''))`),
    /** Name, title and company: the `keywords` filter. */
    searchTsv: tsvector("search_tsv").generatedAlwaysAs(
      sql`to_tsvector('simple', coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(title, '') || ' ' || coalesce(company_name, ''))`,
    ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("finder_people_ws_seq_idx").on(t.workspaceId, t.seq),
    index("finder_people_ws_seniority_idx").on(t.workspaceId, t.seniority),
    index("finder_people_ws_department_idx").on(t.workspaceId, t.department),
    index("finder_people_ws_industry_idx").on(t.workspaceId, t.industry),
    index("finder_people_ws_size_idx").on(t.workspaceId, t.companySize),
    index("finder_people_ws_country_idx").on(t.workspaceId, t.country),
    index("finder_people_ws_domain_idx").on(t.workspaceId, t.companyDomain),
    index("finder_people_tech_idx").using("gin", t.technologies),
    index("finder_people_title_tsv_idx").using("gin", t.titleTsv),
    index("finder_people_search_tsv_idx").using("gin", t.searchTsv),
  ],
);

/**
 * An enrichment job (POST /finder/enrich) or a lead verification (POST /leads with verify: true): one
 * result row per person or lead, worked by the finder-enrich job under a lease (lib/jobs/leased.ts).
 */
export const finderEnrichJobs = pgTable(
  "finder_enrich_jobs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** ENRICH: directory people, candidates guessed; LEADS: existing leads, their own address verified. */
    kind: text("kind").$type<"ENRICH" | "LEADS">().notNull().default("ENRICH"),
    status: jobStatusEnum("status").notNull().default("QUEUED"),
    /** Verify candidates over SMTP (false: the best guess is returned UNVERIFIED, no SMTP at all). */
    verify: boolean("verify").notNull().default(true),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    found: integer("found").notNull().default(0),
    verified: integer("verified").notNull().default(0),
    error: text("error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("finder_enrich_jobs_open_idx").on(t.createdAt).where(sql`status in ('QUEUED', 'RUNNING')`)],
);

/** One person (or lead) of an enrichment job: pending until verified, with greylisting's next attempt. */
export const finderEnrichResults = pgTable(
  "finder_enrich_results",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => finderEnrichJobs.id, { onDelete: "cascade" }),
    /** A finder_people id (ENRICH) or a leads id (LEADS); no foreign key, a deleted one is skipped. */
    subjectId: text("subject_id").notNull(),
    position: integer("position").notNull(),
    domain: text("domain"),
    candidates: text("candidates").array().notNull().default(sql`'{}'::text[]`),
    pending: boolean("pending").notNull().default(true),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    email: text("email"),
    verificationStatus: verificationStatusEnum("verification_status").notNull().default("UNVERIFIED"),
    espClass: espClassEnum("esp_class").notNull().default("UNKNOWN"),
    /** Why: the SMTP answer, "no MX", the timeout… */
    detail: text("detail"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.subjectId] }), index("finder_enrich_results_job_pos_idx").on(t.jobId, t.position)],
);
