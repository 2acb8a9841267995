CREATE TABLE "message_files" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"reply_id" text,
	"sent_reply_id" text,
	"upload" boolean DEFAULT false NOT NULL,
	"file_id" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"cid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_files" ADD CONSTRAINT "message_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_files" ADD CONSTRAINT "message_files_reply_id_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."replies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_files" ADD CONSTRAINT "message_files_sent_reply_id_sent_replies_id_fk" FOREIGN KEY ("sent_reply_id") REFERENCES "public"."sent_replies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_files_reply_idx" ON "message_files" USING btree ("reply_id");--> statement-breakpoint
CREATE INDEX "message_files_sent_idx" ON "message_files" USING btree ("sent_reply_id");