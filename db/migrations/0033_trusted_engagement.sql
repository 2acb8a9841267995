CREATE TYPE "public"."engagement_class" AS ENUM('human', 'proxy', 'scanner', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."tracking_domain_status" AS ENUM('PENDING', 'VERIFIED', 'FAILING');--> statement-breakpoint
CREATE TABLE "tracking_domains" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"domain" text NOT NULL,
	"cname_target" text NOT NULL,
	"status" "tracking_domain_status" DEFAULT 'PENDING' NOT NULL,
	"verified_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"last_error" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "class" "engagement_class";--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "ip_range" text;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "machine_opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "machine_clicked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "tracking_domain_id" text;--> statement-breakpoint
ALTER TABLE "tracking_domains" ADD CONSTRAINT "tracking_domains_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_domains_workspace_domain_uq" ON "tracking_domains" USING btree ("workspace_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_domains_verified_uq" ON "tracking_domains" USING btree ("domain") WHERE verified_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_domains_default_uq" ON "tracking_domains" USING btree ("workspace_id") WHERE is_default;--> statement-breakpoint
CREATE INDEX "tracking_domains_domain_idx" ON "tracking_domains" USING btree ("domain");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_tracking_domain_id_tracking_domains_id_fk" FOREIGN KEY ("tracking_domain_id") REFERENCES "public"."tracking_domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_events_unsettled_idx" ON "email_events" USING btree ("created_at") WHERE settled_at is null;--> statement-breakpoint
CREATE INDEX "email_events_ip_range_idx" ON "email_events" USING btree ("ip_range","created_at");--> statement-breakpoint
-- Hits written before classes existed were counted as they came: they stay settled as they are.
UPDATE "email_events" SET "settled_at" = "created_at" WHERE "settled_at" IS NULL;
