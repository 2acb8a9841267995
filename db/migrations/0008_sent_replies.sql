CREATE TYPE "public"."reply_send_status" AS ENUM('SENDING', 'SENT', 'FAILED');--> statement-breakpoint
CREATE TYPE "public"."sent_by" AS ENUM('HUMAN', 'API', 'AGENT');--> statement-breakpoint
CREATE TABLE "sent_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"lead_id" text,
	"reply_id" text,
	"to" jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bcc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"html" text,
	"status" "reply_send_status" NOT NULL,
	"error" text,
	"smtp_code" text,
	"sent_by" "sent_by" NOT NULL,
	"message_id" text NOT NULL,
	"in_reply_to" text,
	"references" text[] DEFAULT '{}' NOT NULL,
	"background" boolean DEFAULT false NOT NULL,
	"queued_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sent_replies" ADD CONSTRAINT "sent_replies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sent_replies" ADD CONSTRAINT "sent_replies_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sent_replies" ADD CONSTRAINT "sent_replies_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sent_replies_lead_idx" ON "sent_replies" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "sent_replies_sending_idx" ON "sent_replies" USING btree ("status","queued_at");