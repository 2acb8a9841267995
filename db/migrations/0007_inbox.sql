CREATE TYPE "public"."reply_intent" AS ENUM('UNCLASSIFIED', 'INTERESTED', 'NOT_INTERESTED', 'OUT_OF_OFFICE', 'WRONG_PERSON', 'UNSUBSCRIBE_REQUEST', 'QUESTION');--> statement-breakpoint
CREATE TABLE "imap_state" (
	"mailbox_id" text NOT NULL,
	"folder" text NOT NULL,
	"uid_validity" text NOT NULL,
	"last_uid" integer DEFAULT 0 NOT NULL,
	"last_sync_at" timestamp with time zone,
	"leased_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "replies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"lead_id" text,
	"campaign_id" text,
	"email_id" text,
	"message_id" text NOT NULL,
	"in_reply_to" text,
	"references" text[] DEFAULT '{}' NOT NULL,
	"from" jsonb,
	"to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"text_body" text DEFAULT '' NOT NULL,
	"html_body" text,
	"received_at" timestamp with time zone NOT NULL,
	"intent" "reply_intent" DEFAULT 'UNCLASSIFIED' NOT NULL,
	"is_auto_reply" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"starred" boolean DEFAULT false NOT NULL,
	"remind_at" timestamp with time zone,
	"folder" text DEFAULT 'INBOX' NOT NULL,
	"imap_uid" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imap_state" ADD CONSTRAINT "imap_state_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replies" ADD CONSTRAINT "replies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replies" ADD CONSTRAINT "replies_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replies" ADD CONSTRAINT "replies_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "imap_state_mailbox_folder_uq" ON "imap_state" USING btree ("mailbox_id","folder");--> statement-breakpoint
CREATE UNIQUE INDEX "replies_mailbox_message_uq" ON "replies" USING btree ("mailbox_id","message_id");--> statement-breakpoint
CREATE INDEX "replies_workspace_received_idx" ON "replies" USING btree ("workspace_id","received_at");--> statement-breakpoint
CREATE INDEX "replies_lead_idx" ON "replies" USING btree ("lead_id");