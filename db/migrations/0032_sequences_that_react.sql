CREATE TABLE "campaign_subsequences" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"name" text NOT NULL,
	"threading" text DEFAULT 'same' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_branches" (
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"step_id" text NOT NULL,
	"rule_index" integer,
	"rule" text NOT NULL,
	"action" jsonb NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lead_branches_campaign_id_lead_id_step_id_pk" PRIMARY KEY("campaign_id","lead_id","step_id")
);
--> statement-breakpoint
DROP INDEX "campaign_steps_order_variant_uq";--> statement-breakpoint
ALTER TABLE "campaign_leads" ADD COLUMN "subsequence_id" text;--> statement-breakpoint
ALTER TABLE "campaign_leads" ADD COLUMN "branch_step_id" text;--> statement-breakpoint
ALTER TABLE "campaign_leads" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_leads" ADD COLUMN "pause_reason" text;--> statement-breakpoint
ALTER TABLE "campaign_steps" ADD COLUMN "subsequence_id" text;--> statement-breakpoint
ALTER TABLE "campaign_steps" ADD COLUMN "branches" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "skip_holidays" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "blackout_dates" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ooo_resume" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ooo_default_pause_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "return_date" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "return_date_text" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "referral" jsonb;--> statement-breakpoint
ALTER TABLE "campaign_subsequences" ADD CONSTRAINT "campaign_subsequences_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_subsequences" ADD CONSTRAINT "campaign_subsequences_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_branches" ADD CONSTRAINT "lead_branches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_branches" ADD CONSTRAINT "lead_branches_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_branches" ADD CONSTRAINT "lead_branches_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_subsequences_campaign_idx" ON "campaign_subsequences" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "lead_branches_step_idx" ON "lead_branches" USING btree ("step_id");--> statement-breakpoint
ALTER TABLE "campaign_leads" ADD CONSTRAINT "campaign_leads_subsequence_id_campaign_subsequences_id_fk" FOREIGN KEY ("subsequence_id") REFERENCES "public"."campaign_subsequences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_steps" ADD CONSTRAINT "campaign_steps_subsequence_id_campaign_subsequences_id_fk" FOREIGN KEY ("subsequence_id") REFERENCES "public"."campaign_subsequences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_steps_order_variant_uq" ON "campaign_steps" USING btree ("campaign_id",coalesce("subsequence_id", ''),"step_order","variant_group");