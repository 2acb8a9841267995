import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";

/**
 * Idempotency-Key of a POST: one row per key and workspace, claimed before
 * the handler runs (so two concurrent requests cannot both write) and holding the first response for
 * 24 h. `status` is null while the first request is still running.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** sha256 of method, path and raw body: the same key with another request is IDEMPOTENCY_MISMATCH. */
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
