CREATE TYPE "public"."bounce_type" AS ENUM('HARD', 'SOFT');--> statement-breakpoint
CREATE TYPE "public"."email_status" AS ENUM('SENDING', 'SENT', 'BOUNCED', 'FAILED');--> statement-breakpoint
CREATE TABLE "emails" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"lead_id" text,
	"lead_email" text NOT NULL,
	"message_id" text NOT NULL,
	"subject" text NOT NULL,
	"status" "email_status" NOT NULL,
	"bounce_type" "bounce_type",
	"smtp_code" text,
	"smtp_response" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_mailbox_idx" ON "emails" USING btree ("mailbox_id","created_at");--> statement-breakpoint
CREATE INDEX "emails_lead_idx" ON "emails" USING btree ("lead_id");