CREATE TABLE "lead_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"esp_class" "esp_class" DEFAULT 'UNKNOWN' NOT NULL,
	"mx" text,
	"error" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lead_domains_next_check_idx" ON "lead_domains" USING btree ("next_check_at");--> statement-breakpoint
CREATE INDEX "leads_esp_class_domain_idx" ON "leads" USING btree ("esp_class",lower(split_part("email", '@', 2)));