ALTER TABLE "emails" ADD COLUMN "body_text" text;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "body_html" text;