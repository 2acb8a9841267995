ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_workspace_id_workspaces_id_fk";
--> statement-breakpoint
DROP INDEX "webhook_deliveries_created_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'PENDING';