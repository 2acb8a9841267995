DROP INDEX "emails_campaign_idx";--> statement-breakpoint
CREATE INDEX "campaign_leads_mailbox_due_idx" ON "campaign_leads" USING btree ("mailbox_id","next_send_at" NULLS FIRST,"seq") WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "replies_email_idx" ON "replies" USING btree ("email_id");--> statement-breakpoint
CREATE INDEX "emails_campaign_idx" ON "emails" USING btree ("campaign_id","created_at");