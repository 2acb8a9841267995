import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { type mailboxOauth, mailboxOauthAppGrants } from "../../db/schema";
import { AppError } from "../errors";
import { appOnlyToken } from "./admin-consent";
import { OAuthError, type TokenResponse } from "./http";
import { delegatedToken } from "./service-account";

export type AppGrantKind = "SERVICE_ACCOUNT" | "APP_ONLY";
type GrantRow = typeof mailboxOauth.$inferSelect;

/** How a mailbox of a bulk connect gets its tokens, when it has no refresh token of its own (undefined: a consent's grant). */
export async function appGrantOf(db: DbOrTx, mailboxId: string): Promise<AppGrantKind | undefined> {
  const [row] = await db
    .select({ kind: mailboxOauthAppGrants.kind })
    .from(mailboxOauthAppGrants)
    .where(eq(mailboxOauthAppGrants.mailboxId, mailboxId));
  return row?.kind;
}

/**
 * A new access token without a refresh token: a JWT bearer grant signed by the workspace's service
 * account for the mailbox (`subject` is its address), or Microsoft's client credentials for its tenant.
 * A missing configuration is a refusal (retried at each check, so restoring it heals the mailbox).
 */
export async function mintAppToken(db: DbOrTx, row: GrantRow, kind: AppGrantKind, now: Date): Promise<TokenResponse> {
  try {
    if (kind === "SERVICE_ACCOUNT") return await delegatedToken(db, row.workspaceId, row.subject, now);
    if (!row.tenantId) throw new OAuthError("refused", "This mailbox's Microsoft tenant is not on record; connect it again");
    return await appOnlyToken(row.tenantId);
  } catch (e) {
    if (e instanceof AppError) throw new OAuthError("refused", e.message);
    throw e;
  }
}
