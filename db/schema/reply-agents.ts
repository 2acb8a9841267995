import { sql } from "drizzle-orm";
import { bigserial, boolean, customType, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";
import { campaigns } from "./campaigns";

/**
 * Reply agents: AI responders trained on the workspace's documents and website.
 * Knowledge is chunked text in Postgres with a tsvector per chunk (full-text search in the chunk's
 * own language) and, when the AI provider has an embeddings endpoint, a vector in a plain column
 * (pgvector is not available on the embedded server; cosine similarity is computed in JS).
 */

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const regconfig = customType<{ data: string }>({ dataType: () => "regconfig" });

export const agentToneEnum = pgEnum("agent_tone", ["PROFESSIONAL", "FRIENDLY", "CASUAL", "FORMAL"]);

export const replyAgents = pgTable(
  "reply_agents",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    companyName: text("company_name"),
    companyDomain: text("company_domain"),
    tone: agentToneEnum("tone").notNull().default("PROFESSIONAL"),
    additionalInfo: text("additional_info"),
    autonomousReplies: boolean("autonomous_replies").notNull().default(false),
    followUpsEnabled: boolean("follow_ups_enabled").notNull().default(false),
    followUpDays: integer("follow_up_days").notNull().default(3),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reply_agents_workspace_idx").on(t.workspaceId, t.seq)],
);

/** A campaign answers through at most one agent (unique campaign_id). */
export const replyAgentCampaigns = pgTable(
  "reply_agent_campaigns",
  {
    agentId: text("agent_id")
      .notNull()
      .references(() => replyAgents.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("reply_agent_campaigns_campaign_uq").on(t.campaignId), index("reply_agent_campaigns_agent_idx").on(t.agentId)],
);

export const agentDocStatusEnum = pgEnum("agent_doc_status", ["READY", "FAILED"]);

/** A trained document (PDF, DOCX or TXT, ≤ 10 MB). The bytes are not kept: only its text, as chunks. */
export const agentDocuments = pgTable(
  "agent_documents",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => replyAgents.id, { onDelete: "cascade" }),
    filename: text("filename").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    chunks: integer("chunks").notNull().default(0),
    status: agentDocStatusEnum("status").notNull().default("READY"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agent_documents_agent_idx").on(t.agentId, t.seq)],
);

export const agentChunkSourceEnum = pgEnum("agent_chunk_source", ["document", "url"]);

/** One overlapping passage of a document or a web page; what search ranks and answers quote. */
export const agentChunks = pgTable(
  "agent_chunks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => replyAgents.id, { onDelete: "cascade" }),
    sourceKind: agentChunkSourceEnum("source_kind").notNull(),
    /** The document (source_kind document); null for a page. */
    documentId: text("document_id").references(() => agentDocuments.id, { onDelete: "cascade" }),
    /** The document's filename, or the page's URL. */
    source: text("source").notNull(),
    title: text("title"),
    ordinal: integer("ordinal").notNull(),
    text: text("text").notNull(),
    /** The text search configuration of the chunk's language (english, german, …, simple). */
    language: regconfig("language").notNull(),
    tsv: tsvector("tsv").notNull().generatedAlwaysAs(sql`to_tsvector(language, text)`),
    /** The embedding when the AI provider has one (a plain real[]; cosine is computed in JS). */
    embedding: jsonb("embedding").$type<number[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("agent_chunks_agent_idx").on(t.agentId, t.sourceKind, t.source),
    index("agent_chunks_tsv_idx").using("gin", t.tsv),
    index("agent_chunks_document_idx").on(t.documentId),
  ],
);

/** Crawl job statuses: the same names as every other job's status. */
export const agentScanStatusEnum = pgEnum("agent_scan_status", ["QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELLED"]);

/** A website crawl (the latest per agent is the one shown). */
export const agentWebsiteScans = pgTable(
  "agent_website_scans",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => replyAgents.id, { onDelete: "cascade" }),
    startUrl: text("start_url").notNull(),
    domain: text("domain").notNull(),
    maxPages: integer("max_pages").notNull(),
    status: agentScanStatusEnum("status").notNull().default("QUEUED"),
    pagesFound: integer("pages_found").notNull().default(0),
    pagesFetched: integer("pages_fetched").notNull().default(0),
    error: text("error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("agent_website_scans_agent_idx").on(t.agentId, t.seq),
    index("agent_website_scans_open_idx").on(t.seq).where(sql`status in ('QUEUED', 'RUNNING')`),
  ],
);

export const agentPageStatusEnum = pgEnum("agent_page_status", ["FOUND", "FETCHED", "INDEXED", "SKIPPED", "FAILED"]);

/** A page the crawl found: its readable text once fetched, INDEXED once chunked into the knowledge. */
export const agentWebsitePages = pgTable(
  "agent_website_pages",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    scanId: text("scan_id")
      .notNull()
      .references(() => agentWebsiteScans.id, { onDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => replyAgents.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    title: text("title"),
    status: agentPageStatusEnum("status").notNull().default("FOUND"),
    text: text("text"),
    error: text("error"),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("agent_website_pages_scan_url_uq").on(t.scanId, t.url),
    index("agent_website_pages_scan_idx").on(t.scanId, t.seq),
    index("agent_website_pages_agent_idx").on(t.agentId),
  ],
);
