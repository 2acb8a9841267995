import { sql } from "drizzle-orm";
import { boolean, index, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./accounts";

export const trackingDomainStatusEnum = pgEnum("tracking_domain_status", ["PENDING", "VERIFIED", "FAILING"]);

/**
 * A workspace's own host for the open pixel, click redirects and unsubscribe links (for example
 * `track.client.com`, a CNAME to `cnameTarget`). Used for mail only once verified through the
 * configured DNS servers; a domain one workspace has verified cannot be added by another. At most one
 * default per workspace (campaigns without their own choice track through it).
 */
export const trackingDomains = pgTable(
  "tracking_domains",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-case host name, no trailing dot. */
    domain: text("domain").notNull(),
    cnameTarget: text("cname_target").notNull(),
    status: trackingDomainStatusEnum("status").notNull().default("PENDING"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    /** Why the last check failed (what the DNS answered), null after a passing check. */
    lastError: text("last_error"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("tracking_domains_workspace_domain_uq").on(t.workspaceId, t.domain),
    uniqueIndex("tracking_domains_verified_uq").on(t.domain).where(sql`verified_at is not null`),
    uniqueIndex("tracking_domains_default_uq").on(t.workspaceId).where(sql`is_default`),
    index("tracking_domains_domain_idx").on(t.domain),
  ],
);
