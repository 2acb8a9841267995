CREATE TYPE "public"."copy_fatigue_status" AS ENUM('OK', 'FATIGUED', 'DISMISSED');--> statement-breakpoint
CREATE TYPE "public"."agent_reply_kind" AS ENUM('ANSWER', 'FOLLOW_UP');--> statement-breakpoint
CREATE TYPE "public"."agent_reply_status" AS ENUM('PENDING', 'WORKING', 'SENT', 'SKIPPED', 'FAILED');--> statement-breakpoint
CREATE TABLE "copy_fatigue_scans" (
	"campaign_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"last_scan_at" timestamp with time zone,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "copy_fatigue_steps" (
	"step_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"status" "copy_fatigue_status" DEFAULT 'OK' NOT NULL,
	"sends" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	"first_rate" double precision,
	"recent_rate" double precision,
	"reasons" text[] DEFAULT '{}' NOT NULL,
	"dismissed_reasons" text[] DEFAULT '{}' NOT NULL,
	"body_hash" text NOT NULL,
	"body_since" timestamp with time zone,
	"flagged_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	"scanned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_replies" (
	"reply_id" text NOT NULL,
	"kind" "agent_reply_kind" NOT NULL,
	"workspace_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"lead_id" text,
	"campaign_id" text,
	"status" "agent_reply_status" DEFAULT 'PENDING' NOT NULL,
	"reason" text,
	"detail" text,
	"provider" text,
	"body" text,
	"sent_reply_id" text,
	"due_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_replies_reply_id_kind_pk" PRIMARY KEY("reply_id","kind")
);
--> statement-breakpoint
ALTER TABLE "copy_fatigue_scans" ADD CONSTRAINT "copy_fatigue_scans_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_fatigue_scans" ADD CONSTRAINT "copy_fatigue_scans_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_fatigue_steps" ADD CONSTRAINT "copy_fatigue_steps_step_id_campaign_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."campaign_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_fatigue_steps" ADD CONSTRAINT "copy_fatigue_steps_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_fatigue_steps" ADD CONSTRAINT "copy_fatigue_steps_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_replies" ADD CONSTRAINT "agent_replies_reply_id_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."replies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_replies" ADD CONSTRAINT "agent_replies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_replies" ADD CONSTRAINT "agent_replies_agent_id_reply_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."reply_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_replies" ADD CONSTRAINT "agent_replies_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_replies" ADD CONSTRAINT "agent_replies_sent_reply_id_sent_replies_id_fk" FOREIGN KEY ("sent_reply_id") REFERENCES "public"."sent_replies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "copy_fatigue_scans_due_idx" ON "copy_fatigue_scans" USING btree ("last_scan_at");--> statement-breakpoint
CREATE INDEX "copy_fatigue_steps_campaign_idx" ON "copy_fatigue_steps" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "agent_replies_due_idx" ON "agent_replies" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "agent_replies_agent_idx" ON "agent_replies" USING btree ("agent_id","created_at");