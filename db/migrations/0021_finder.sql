CREATE TABLE "finder_enrich_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text DEFAULT 'ENRICH' NOT NULL,
	"status" "job_status" DEFAULT 'QUEUED' NOT NULL,
	"verify" boolean DEFAULT true NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"found" integer DEFAULT 0 NOT NULL,
	"verified" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "finder_enrich_results" (
	"job_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"position" integer NOT NULL,
	"domain" text,
	"candidates" text[] DEFAULT '{}'::text[] NOT NULL,
	"pending" boolean DEFAULT true NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"email" text,
	"verification_status" "lead_verification_status" DEFAULT 'UNVERIFIED' NOT NULL,
	"esp_class" "esp_class" DEFAULT 'UNKNOWN' NOT NULL,
	"detail" text,
	CONSTRAINT "finder_enrich_results_job_id_subject_id_pk" PRIMARY KEY("job_id","subject_id")
);
--> statement-breakpoint
CREATE TABLE "finder_people" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"title" text,
	"seniority" text,
	"department" text,
	"company_name" text,
	"company_domain" text,
	"industry" text,
	"company_size" text,
	"country" text,
	"city" text,
	"linkedin_url" text,
	"technologies" text[] DEFAULT '{}'::text[] NOT NULL,
	"email" text,
	"verification_status" "lead_verification_status" DEFAULT 'UNVERIFIED' NOT NULL,
	"esp_class" "esp_class" DEFAULT 'UNKNOWN' NOT NULL,
	"title_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(title, ''))) STORED,
	"search_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(title, '') || ' ' || coalesce(company_name, ''))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "finder_enrich_jobs" ADD CONSTRAINT "finder_enrich_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_enrich_results" ADD CONSTRAINT "finder_enrich_results_job_id_finder_enrich_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."finder_enrich_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_people" ADD CONSTRAINT "finder_people_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finder_enrich_jobs_open_idx" ON "finder_enrich_jobs" USING btree ("created_at") WHERE status in ('QUEUED', 'RUNNING');--> statement-breakpoint
CREATE INDEX "finder_enrich_results_job_pos_idx" ON "finder_enrich_results" USING btree ("job_id","position");--> statement-breakpoint
CREATE INDEX "finder_people_ws_seq_idx" ON "finder_people" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "finder_people_ws_seniority_idx" ON "finder_people" USING btree ("workspace_id","seniority");--> statement-breakpoint
CREATE INDEX "finder_people_ws_department_idx" ON "finder_people" USING btree ("workspace_id","department");--> statement-breakpoint
CREATE INDEX "finder_people_ws_industry_idx" ON "finder_people" USING btree ("workspace_id","industry");--> statement-breakpoint
CREATE INDEX "finder_people_ws_size_idx" ON "finder_people" USING btree ("workspace_id","company_size");--> statement-breakpoint
CREATE INDEX "finder_people_ws_country_idx" ON "finder_people" USING btree ("workspace_id","country");--> statement-breakpoint
CREATE INDEX "finder_people_ws_domain_idx" ON "finder_people" USING btree ("workspace_id","company_domain");--> statement-breakpoint
CREATE INDEX "finder_people_tech_idx" ON "finder_people" USING gin ("technologies");--> statement-breakpoint
CREATE INDEX "finder_people_title_tsv_idx" ON "finder_people" USING gin ("title_tsv");--> statement-breakpoint
CREATE INDEX "finder_people_search_tsv_idx" ON "finder_people" USING gin ("search_tsv");