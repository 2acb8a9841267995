import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";

export const deliveryStatusEnum = pgEnum("webhook_delivery_status", ["PENDING", "DELIVERED", "FAILED"]);

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    active: boolean("active").notNull().default(true),
    /** The attempt limit: total attempts, the first included. */
    retryAttempts: integer("retry_attempts").notNull().default(3),
    timeoutMs: integer("timeout_ms").notNull().default(10000),
    /** Signing secrets, sealed with AES-256-GCM; the previous one signs too until it expires. */
    secretEnc: text("secret_enc").notNull(),
    previousSecretEnc: text("previous_secret_enc"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhooks_workspace_idx").on(t.workspaceId)],
);

/**
 * One event going to one webhook. The body is fixed when the delivery is made, so retries and
 * resends send the same bytes with the same event id.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    /**
     * No foreign key of its own: the delivery's webhook belongs to the same workspace, and deleting the
     * workspace deletes its webhooks, which deletes their deliveries (one check per insert fewer).
     */
    workspaceId: text("workspace_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    body: text("body").notNull(),
    status: deliveryStatusEnum("status").notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    /** Test deliveries are logged but never retried. */
    isTest: boolean("is_test").notNull().default(false),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** A worker holds the delivery until then; after a crash it becomes due again. */
    leasedUntil: timestamp("leased_until", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastResponse: text("last_response"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Three index entries per new delivery and two per recorded outcome: the log by webhook (listing,
  // and the 30-day cleanup webhook by webhook) and the due queue, which holds pending rows only.
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'PENDING'`),
  ],
);
