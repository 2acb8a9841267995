CREATE TYPE "public"."agent_chunk_source" AS ENUM('document', 'url');--> statement-breakpoint
CREATE TYPE "public"."agent_doc_status" AS ENUM('READY', 'FAILED');--> statement-breakpoint
CREATE TYPE "public"."agent_page_status" AS ENUM('FOUND', 'FETCHED', 'INDEXED', 'SKIPPED', 'FAILED');--> statement-breakpoint
CREATE TYPE "public"."agent_scan_status" AS ENUM('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED');--> statement-breakpoint
CREATE TYPE "public"."agent_tone" AS ENUM('PROFESSIONAL', 'FRIENDLY', 'CASUAL', 'FORMAL');--> statement-breakpoint
CREATE TABLE "agent_chunks" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"source_kind" "agent_chunk_source" NOT NULL,
	"document_id" text,
	"source" text NOT NULL,
	"title" text,
	"ordinal" integer NOT NULL,
	"text" text NOT NULL,
	"language" "regconfig" NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector(language, text)) STORED NOT NULL,
	"embedding" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"filename" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"chunks" integer DEFAULT 0 NOT NULL,
	"status" "agent_doc_status" DEFAULT 'READY' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_website_pages" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"scan_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"url" text NOT NULL,
	"title" text,
	"status" "agent_page_status" DEFAULT 'FOUND' NOT NULL,
	"text" text,
	"error" text,
	"fetched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agent_website_scans" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"start_url" text NOT NULL,
	"domain" text NOT NULL,
	"max_pages" integer NOT NULL,
	"status" "agent_scan_status" DEFAULT 'QUEUED' NOT NULL,
	"pages_found" integer DEFAULT 0 NOT NULL,
	"pages_fetched" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reply_agent_campaigns" (
	"agent_id" text NOT NULL,
	"campaign_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reply_agents" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"company_name" text,
	"company_domain" text,
	"tone" "agent_tone" DEFAULT 'PROFESSIONAL' NOT NULL,
	"additional_info" text,
	"autonomous_replies" boolean DEFAULT false NOT NULL,
	"follow_ups_enabled" boolean DEFAULT false NOT NULL,
	"follow_up_days" integer DEFAULT 3 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_chunks" ADD CONSTRAINT "agent_chunks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_chunks" ADD CONSTRAINT "agent_chunks_agent_id_reply_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."reply_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_chunks" ADD CONSTRAINT "agent_chunks_document_id_agent_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."agent_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_documents" ADD CONSTRAINT "agent_documents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_documents" ADD CONSTRAINT "agent_documents_agent_id_reply_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."reply_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_website_pages" ADD CONSTRAINT "agent_website_pages_scan_id_agent_website_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."agent_website_scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_website_pages" ADD CONSTRAINT "agent_website_pages_agent_id_reply_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."reply_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_website_scans" ADD CONSTRAINT "agent_website_scans_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_website_scans" ADD CONSTRAINT "agent_website_scans_agent_id_reply_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."reply_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_agent_campaigns" ADD CONSTRAINT "reply_agent_campaigns_agent_id_reply_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."reply_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_agent_campaigns" ADD CONSTRAINT "reply_agent_campaigns_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_agents" ADD CONSTRAINT "reply_agents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_chunks_agent_idx" ON "agent_chunks" USING btree ("agent_id","source_kind","source");--> statement-breakpoint
CREATE INDEX "agent_chunks_tsv_idx" ON "agent_chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "agent_documents_agent_idx" ON "agent_documents" USING btree ("agent_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_website_pages_scan_url_uq" ON "agent_website_pages" USING btree ("scan_id","url");--> statement-breakpoint
CREATE INDEX "agent_website_pages_scan_idx" ON "agent_website_pages" USING btree ("scan_id","seq");--> statement-breakpoint
CREATE INDEX "agent_website_scans_agent_idx" ON "agent_website_scans" USING btree ("agent_id","seq");--> statement-breakpoint
CREATE INDEX "agent_website_scans_open_idx" ON "agent_website_scans" USING btree ("seq") WHERE status in ('QUEUED', 'RUNNING');--> statement-breakpoint
CREATE UNIQUE INDEX "reply_agent_campaigns_campaign_uq" ON "reply_agent_campaigns" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "reply_agent_campaigns_agent_idx" ON "reply_agent_campaigns" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "reply_agents_workspace_idx" ON "reply_agents" USING btree ("workspace_id","seq");