CREATE TYPE "public"."mailbox_auth_type" AS ENUM('PASSWORD', 'OAUTH');--> statement-breakpoint
CREATE TYPE "public"."check_status" AS ENUM('PASS', 'WARN', 'FAIL', 'MISSING', 'UNCHECKED');--> statement-breakpoint
CREATE TYPE "public"."mail_provider" AS ENUM('GOOGLE', 'MICROSOFT', 'YAHOO', 'ZOHO', 'ICLOUD', 'FASTMAIL', 'CUSTOM');--> statement-breakpoint
CREATE TYPE "public"."mail_security" AS ENUM('SSL', 'STARTTLS', 'NONE');--> statement-breakpoint
CREATE TYPE "public"."warmup_status" AS ENUM('OFF', 'EARLY', 'RAMPING', 'STEADY', 'PAUSED', 'AUTO_PAUSED');--> statement-breakpoint
CREATE TABLE "domains" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"domain" text NOT NULL,
	"dkim_selectors" text[] DEFAULT '{}'::text[] NOT NULL,
	"spf_status" "check_status" DEFAULT 'UNCHECKED' NOT NULL,
	"dkim_status" "check_status" DEFAULT 'UNCHECKED' NOT NULL,
	"dmarc_status" "check_status" DEFAULT 'UNCHECKED' NOT NULL,
	"mx_status" "check_status" DEFAULT 'UNCHECKED' NOT NULL,
	"blacklist_status" "check_status" DEFAULT 'UNCHECKED' NOT NULL,
	"checks" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailbox_tags" (
	"workspace_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"tag_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailbox_tags_mailbox_id_tag_id_pk" PRIMARY KEY("mailbox_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "mailboxes" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" integer GENERATED ALWAYS AS IDENTITY (sequence name "mailboxes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workspace_id" text NOT NULL,
	"domain_id" text NOT NULL,
	"email" text NOT NULL,
	"sender_name" text,
	"signature_html" text,
	"provider" "mail_provider" NOT NULL,
	"esp_class" text DEFAULT 'UNKNOWN' NOT NULL,
	"auth_type" "mailbox_auth_type" DEFAULT 'PASSWORD' NOT NULL,
	"smtp_host" text NOT NULL,
	"smtp_port" integer NOT NULL,
	"smtp_security" "mail_security" NOT NULL,
	"smtp_username" text NOT NULL,
	"smtp_password_enc" text NOT NULL,
	"imap_host" text NOT NULL,
	"imap_port" integer NOT NULL,
	"imap_security" "mail_security" NOT NULL,
	"imap_username" text NOT NULL,
	"imap_password_enc" text NOT NULL,
	"daily_send_cap" integer DEFAULT 20 NOT NULL,
	"sending_enabled" boolean DEFAULT true NOT NULL,
	"assumed_warm" boolean DEFAULT false NOT NULL,
	"warmup_group" text,
	"warmup_status" "warmup_status" DEFAULT 'OFF' NOT NULL,
	"login_failing_since" timestamp with time zone,
	"login_error" text,
	"read_failing_since" timestamp with time zone,
	"read_error" text,
	"auto_paused_at" timestamp with time zone,
	"auto_pause_reason" text,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "leads_workspace_seq_idx";--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_tags" ADD CONSTRAINT "mailbox_tags_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_tags" ADD CONSTRAINT "mailbox_tags_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_tags" ADD CONSTRAINT "mailbox_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_workspace_domain_uq" ON "domains" USING btree ("workspace_id","domain");--> statement-breakpoint
CREATE INDEX "domains_check_due_idx" ON "domains" USING btree ("last_checked_at");--> statement-breakpoint
CREATE INDEX "mailbox_tags_tag_idx" ON "mailbox_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailboxes_workspace_email_uq" ON "mailboxes" USING btree ("workspace_id",lower("email"));--> statement-breakpoint
CREATE INDEX "mailboxes_domain_idx" ON "mailboxes" USING btree ("domain_id");--> statement-breakpoint
CREATE INDEX "mailboxes_check_due_idx" ON "mailboxes" USING btree ("last_checked_at");--> statement-breakpoint
CREATE INDEX "leads_workspace_seq_idx" ON "leads" USING btree ("workspace_id","seq");