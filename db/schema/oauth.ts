import { index, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users, workspaces } from "./accounts";
import { mailboxes } from "./mailboxes";

export const oauthProviderEnum = pgEnum("oauth_provider", ["GOOGLE", "MICROSOFT"]);

/**
 * The OAuth grant behind a mailbox with `authType: OAUTH` (one per mailbox). The refresh token is
 * sealed like a password (lib/crypto/secretbox); the access token too, since it logs in for an hour.
 * Refreshes take this row `FOR UPDATE`, so two workers never spend one refresh token (lib/oauth/tokens.ts).
 */
export const mailboxOauth = pgTable(
  "mailbox_oauth",
  {
    mailboxId: text("mailbox_id")
      .primaryKey()
      .references(() => mailboxes.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    provider: oauthProviderEnum("provider").notNull(),
    /** The account at the provider: Google's `sub`, Microsoft's `oid`. */
    subject: text("subject").notNull(),
    /** Microsoft's directory (`tid`) the account belongs to; null for Google. */
    tenantId: text("tenant_id"),
    /** The scopes the provider granted, space-separated as it sent them. */
    scopes: text("scopes").notNull(),
    refreshTokenEnc: text("refresh_token_enc").notNull(),
    accessTokenEnc: text("access_token_enc"),
    accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }),
    refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
    /** The provider's last refusal (`invalid_grant: …`), shown as the mailbox's login error. */
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
    /** Set when the provider refused the refresh token for good (consent revoked, account disabled): no more refreshes until a reconnect. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mailbox_oauth_workspace_idx").on(t.workspaceId)],
);

/**
 * A consent in progress: created by the start route, used once by the callback. The PKCE verifier
 * stays here (sealed) rather than in the state, so a code intercepted on its way back cannot be redeemed.
 */
export const oauthFlows = pgTable(
  "oauth_flows",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `session` flows must come back to the same signed-in user; `apiKey` flows may be finished by whoever got the link. */
    actorType: text("actor_type").notNull(),
    provider: oauthProviderEnum("provider").notNull(),
    codeVerifierEnc: text("code_verifier_enc").notNull(),
    /** What the new mailbox gets: senderName, warmupGroup, tagIds. */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("oauth_flows_expires_idx").on(t.expiresAt)],
);
