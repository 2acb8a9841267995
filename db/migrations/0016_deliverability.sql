CREATE TYPE "public"."alert_kind" AS ENUM('BOUNCE_SPIKE', 'LOGIN_FAILING', 'READ_FAILING', 'BLACKLISTED', 'PLACEMENT_DROP', 'DNS_FAILING');--> statement-breakpoint
CREATE TYPE "public"."job_status" AS ENUM('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED');--> statement-breakpoint
CREATE TYPE "public"."placement" AS ENUM('PENDING', 'INBOX', 'SPAM', 'MISSING');--> statement-breakpoint
CREATE TYPE "public"."placement_status" AS ENUM('RUNNING', 'COMPLETED', 'FAILED', 'NO_SEED_POOL');--> statement-breakpoint
CREATE TYPE "public"."warmup_mail_status" AS ENUM('PLANNED', 'SENDING', 'SENT', 'FAILED');--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" "alert_kind" NOT NULL,
	"severity" text NOT NULL,
	"subject" text NOT NULL,
	"mailbox_id" text,
	"domain" text,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "blacklist_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"status" "job_status" DEFAULT 'QUEUED' NOT NULL,
	"targets" jsonb NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"listed_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "blacklist_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"target" text NOT NULL,
	"type" text NOT NULL,
	"zone" text NOT NULL,
	"listed" boolean NOT NULL,
	"answer" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailbox_warmups" (
	"mailbox_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"day_index" integer DEFAULT 0 NOT NULL,
	"starting_volume" integer NOT NULL,
	"daily_increase" integer NOT NULL,
	"target_volume" integer NOT NULL,
	"reply_rate_min_pct" integer NOT NULL,
	"reply_rate_max_pct" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"paused_at" timestamp with time zone,
	"day" date,
	"day_started_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "placement_results" (
	"id" text PRIMARY KEY NOT NULL,
	"test_id" text NOT NULL,
	"seed_email" text NOT NULL,
	"seed_mailbox_id" text,
	"provider" text NOT NULL,
	"message_id" text NOT NULL,
	"placement" "placement" DEFAULT 'PENDING' NOT NULL,
	"folder" text,
	"tab" text,
	"send_error" text,
	"received_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "placement_tests" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"workspace_id" text NOT NULL,
	"batch_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"status" "placement_status" NOT NULL,
	"subject" text NOT NULL,
	"body_text" text NOT NULL,
	"seed_count" integer DEFAULT 0 NOT NULL,
	"inbox_count" integer DEFAULT 0 NOT NULL,
	"spam_count" integer DEFAULT 0 NOT NULL,
	"missing_count" integer DEFAULT 0 NOT NULL,
	"gmail_tabs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"deadline_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "warmup_days" (
	"mailbox_id" text NOT NULL,
	"day" date NOT NULL,
	"day_index" integer NOT NULL,
	"target" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warmup_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"from_mailbox_id" text NOT NULL,
	"to_mailbox_id" text,
	"to_email" text NOT NULL,
	"warming_mailbox_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"message_id" text NOT NULL,
	"in_reply_to" text,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject" text NOT NULL,
	"body_text" text NOT NULL,
	"status" "warmup_mail_status" NOT NULL,
	"due_at" timestamp with time zone,
	"day" date NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"received_folder" text,
	"rescued_from_spam" boolean DEFAULT false NOT NULL,
	"answered" boolean
);
--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "is_seed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blacklist_jobs" ADD CONSTRAINT "blacklist_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blacklist_results" ADD CONSTRAINT "blacklist_results_job_id_blacklist_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."blacklist_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_warmups" ADD CONSTRAINT "mailbox_warmups_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_warmups" ADD CONSTRAINT "mailbox_warmups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_results" ADD CONSTRAINT "placement_results_test_id_placement_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."placement_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_results" ADD CONSTRAINT "placement_results_seed_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("seed_mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_tests" ADD CONSTRAINT "placement_tests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_tests" ADD CONSTRAINT "placement_tests_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warmup_days" ADD CONSTRAINT "warmup_days_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warmup_messages" ADD CONSTRAINT "warmup_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warmup_messages" ADD CONSTRAINT "warmup_messages_from_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("from_mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warmup_messages" ADD CONSTRAINT "warmup_messages_to_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("to_mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warmup_messages" ADD CONSTRAINT "warmup_messages_warming_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("warming_mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_uq" ON "alerts" USING btree ("workspace_id","kind","subject") WHERE resolved_at IS NULL;--> statement-breakpoint
CREATE INDEX "alerts_workspace_idx" ON "alerts" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "blacklist_jobs_open_idx" ON "blacklist_jobs" USING btree ("created_at") WHERE status in ('QUEUED', 'RUNNING');--> statement-breakpoint
CREATE UNIQUE INDEX "blacklist_results_uq" ON "blacklist_results" USING btree ("job_id","target","zone");--> statement-breakpoint
CREATE INDEX "placement_results_test_idx" ON "placement_results" USING btree ("test_id");--> statement-breakpoint
CREATE UNIQUE INDEX "placement_results_message_id_uq" ON "placement_results" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "placement_tests_workspace_idx" ON "placement_tests" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "placement_tests_running_idx" ON "placement_tests" USING btree ("created_at") WHERE status = 'RUNNING';--> statement-breakpoint
CREATE UNIQUE INDEX "warmup_days_pk" ON "warmup_days" USING btree ("mailbox_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "warmup_messages_message_id_uq" ON "warmup_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "warmup_messages_from_day_idx" ON "warmup_messages" USING btree ("from_mailbox_id","day");--> statement-breakpoint
CREATE INDEX "warmup_messages_warming_day_idx" ON "warmup_messages" USING btree ("warming_mailbox_id","day");--> statement-breakpoint
CREATE INDEX "warmup_messages_planned_idx" ON "warmup_messages" USING btree ("due_at") WHERE status = 'PLANNED';--> statement-breakpoint
CREATE INDEX "warmup_messages_unread_idx" ON "warmup_messages" USING btree ("to_mailbox_id") WHERE received_at IS NULL AND status = 'SENT';