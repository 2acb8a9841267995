CREATE TABLE "google_service_accounts" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"client_email" text NOT NULL,
	"client_id" text,
	"private_key_id" text,
	"private_key_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailbox_oauth_app_grants" (
	"mailbox_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "microsoft_tenants" (
	"workspace_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"consented_by" text,
	"consented_at" timestamp with time zone NOT NULL,
	CONSTRAINT "microsoft_tenants_workspace_id_tenant_id_pk" PRIMARY KEY("workspace_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_bulk_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"provider" "oauth_provider" NOT NULL,
	"tenant_id" text,
	"status" "job_status" DEFAULT 'QUEUED' NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"connected" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_bulk_results" (
	"job_id" text NOT NULL,
	"email" text NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"mailbox_id" text,
	"created" boolean,
	"error" text,
	"finished_at" timestamp with time zone,
	CONSTRAINT "oauth_bulk_results_job_id_email_pk" PRIMARY KEY("job_id","email")
);
--> statement-breakpoint
ALTER TABLE "google_service_accounts" ADD CONSTRAINT "google_service_accounts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_oauth_app_grants" ADD CONSTRAINT "mailbox_oauth_app_grants_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "microsoft_tenants" ADD CONSTRAINT "microsoft_tenants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "microsoft_tenants" ADD CONSTRAINT "microsoft_tenants_consented_by_users_id_fk" FOREIGN KEY ("consented_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_bulk_jobs" ADD CONSTRAINT "oauth_bulk_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_bulk_results" ADD CONSTRAINT "oauth_bulk_results_job_id_oauth_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."oauth_bulk_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_bulk_results" ADD CONSTRAINT "oauth_bulk_results_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_bulk_jobs_ws_idx" ON "oauth_bulk_jobs" USING btree ("workspace_id","created_at");