-- The outbox keeps only events still to dispatch: the webhook job now deletes the events it turns into
-- deliveries, in the same transaction (lib/webhooks/dispatch.ts), instead of marking them dispatched
-- and keeping them for ever. What earlier versions marked is gone the same way; each delivered body
-- stays in the delivery log for its 30 days.
DELETE FROM "events" WHERE "dispatched_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX "events_undispatched_idx";--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "dispatched_at";
