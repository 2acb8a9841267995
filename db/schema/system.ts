import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";

/**
 * The events outbox: a domain change that fires a section 6 event writes its row here in the same
 * transaction. The webhook job turns rows into deliveries and deletes them in that transaction, so the
 * table holds only events still to dispatch (lib/webhooks/dispatch.ts).
 */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("events_created_idx").on(t.createdAt), index("events_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** Fixed-window rate-limit counters (lib/rate-limit.ts: one atomic upsert per hit, the window on the database's clock). */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true }),
});

/** One row per background job name: when the sidecar (or Inngest) last ran it, and how it went. */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastError: text("last_error"),
  lastResult: jsonb("last_result"),
});
