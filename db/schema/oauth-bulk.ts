import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users, workspaces } from "./accounts";
import { jobStatusEnum } from "./deliverability";
import { mailboxes } from "./mailboxes";
import { oauthProviderEnum } from "./oauth";

/**
 * A workspace's Google service account for domain-wide delegation: its key signs the
 * JWT bearer grants that get each delegated mailbox's access token. The private key is sealed like a
 * password (lib/crypto/secretbox). One per workspace: an agency's client authorizes its client id once.
 */
export const googleServiceAccounts = pgTable("google_service_accounts", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  clientEmail: text("client_email").notNull(),
  /** The numeric client id a Workspace admin authorizes (Admin console → Security → API controls → Domain-wide delegation). */
  clientId: text("client_id"),
  privateKeyId: text("private_key_id"),
  privateKeyEnc: text("private_key_enc").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A Microsoft tenant whose admin consented to the app's application permissions, recorded by the admin-consent callback. */
export const microsoftTenants = pgTable(
  "microsoft_tenants",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    consentedBy: text("consented_by").references(() => users.id, { onDelete: "set null" }),
    consentedAt: timestamp("consented_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.tenantId] })],
);

/**
 * An OAuth mailbox whose access token is minted without a refresh token: `SERVICE_ACCOUNT` by a JWT
 * bearer grant signed with the workspace's Google service account, `APP_ONLY` by Microsoft's client
 * credentials grant for the mailbox's tenant (mailbox_oauth.tenant_id). A consent reconnect deletes it.
 */
export const mailboxOauthAppGrants = pgTable("mailbox_oauth_app_grants", {
  mailboxId: text("mailbox_id")
    .primaryKey()
    .references(() => mailboxes.id, { onDelete: "cascade" }),
  kind: text("kind").$type<"SERVICE_ACCOUNT" | "APP_ONLY">().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A bulk connect: addresses of one Google Workspace domain or Microsoft tenant, connected by the oauth-bulk job. */
export const oauthBulkJobs = pgTable(
  "oauth_bulk_jobs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: oauthProviderEnum("provider").notNull(),
    /** Microsoft: the consented tenant the mailboxes belong to. */
    tenantId: text("tenant_id"),
    status: jobStatusEnum("status").notNull().default("QUEUED"),
    /** What each connected mailbox gets: senderName, warmupGroup, tagIds. */
    options: jsonb("options").$type<{ senderName?: string; warmupGroup?: string; tagIds?: string[] }>().notNull().default({}),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    connected: integer("connected").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    error: text("error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("oauth_bulk_jobs_ws_idx").on(t.workspaceId, t.createdAt)],
);

/** One address of a bulk job: PENDING until tried, then CONNECTED (with its mailbox) or FAILED (with the reason). */
export const oauthBulkResults = pgTable(
  "oauth_bulk_results",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => oauthBulkJobs.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    position: integer("position").notNull(),
    status: text("status").$type<"PENDING" | "CONNECTED" | "FAILED">().notNull().default("PENDING"),
    mailboxId: text("mailbox_id").references(() => mailboxes.id, { onDelete: "set null" }),
    /** Whether the mailbox was new (false: an existing one reconnected, history and warmup kept). */
    created: boolean("created"),
    error: text("error"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.email] }),
    index("oauth_bulk_results_mailbox_idx").on(t.mailboxId).where(sql`mailbox_id is not null`),
  ],
);
