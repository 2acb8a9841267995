import { index, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { roleEnum, users, workspaces } from "./accounts";
import { leads } from "./leads";

/**
 * A signed-in browser. The session cookie (a next-auth JWT) names its row by `sid`; every request
 * checks the row, so ending a session (by the user, a password change, removal from the workspace or
 * a newly required second factor) takes effect on its next request.
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokeReason: text("revoke_reason"),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId, t.lastSeenAt)],
);

/** Ten single-use recovery codes per user with two-factor sign-in on, stored as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** An invitation to a workspace: a single-use link (its token stored as a hash) valid 7 days. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: roleEnum("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("invitations_token_uq").on(t.tokenHash), index("invitations_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export const userTokenKindEnum = pgEnum("user_token_kind", ["password_reset", "email_change"]);

/** Emailed single-use links for one user: a password reset, or the confirmation of a new email address. */
export const userTokens = pgTable(
  "user_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: userTokenKindEnum("kind").notNull(),
    tokenHash: text("token_hash").notNull(),
    newEmail: text("new_email"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("user_tokens_token_uq").on(t.tokenHash), index("user_tokens_user_idx").on(t.userId)],
);

/**
 * Who did what, to what, when and from where. A workspace's entries carry its id; entries about a
 * user's own sign-in (workspace_id null, `subject_user_id` set) show in every workspace the user is a
 * member of. Nothing here holds a secret: keys appear by prefix, passwords never.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    subjectUserId: text("subject_user_id").references(() => users.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorType: text("actor_type").$type<"user" | "api_key" | "system">().notNull(),
    actorId: text("actor_id"),
    actorLabel: text("actor_label"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    targetLabel: text("target_label"),
    ip: text("ip"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index("audit_log_workspace_idx").on(t.workspaceId, t.at),
    index("audit_log_subject_idx").on(t.subjectUserId, t.at),
    index("audit_log_at_idx").on(t.at),
  ],
);

/** Who in the team handles a conversation (one per lead's thread). */
export const threadAssignments = pgTable(
  "thread_assignments",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    leadId: text("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    assignedBy: text("assigned_by"),
    assignedAt: timestamp("assigned_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.leadId] }),
    index("thread_assignments_user_idx").on(t.workspaceId, t.userId),
    // Deleting a lead or a user cascades here row by row (the keys above lead with the workspace).
    index("thread_assignments_lead_idx").on(t.leadId),
    index("thread_assignments_assignee_idx").on(t.userId),
  ],
);
