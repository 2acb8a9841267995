import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxOauth } from "../../db/schema";
import type { Clock } from "../clock";
import { decryptSecret, encryptSecret } from "../crypto/secretbox";
import { AppError } from "../errors";
import { appGrantOf, mintAppToken } from "./app-grants";
import { OAuthError, type TokenResponse, tokenRequest } from "./http";
import { oauthApp } from "./providers";

/** An access token is replaced this long before it expires, so no SMTP or IMAP login starts with one about to lapse. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** When the provider does not say how long a token lives (both say 3600 s). */
const DEFAULT_LIFETIME_S = 3600;

/** When an access token just received from the provider expires. */
export const accessExpiry = (tokens: Pick<TokenResponse, "expires_in">, now: Date) =>
  new Date(now.getTime() + (tokens.expires_in ?? DEFAULT_LIFETIME_S) * 1000);

type GrantRow = typeof mailboxOauth.$inferSelect;

/**
 * Access tokens this process has seen, so a send does not read the database each time. A token a
 * server refused, or one near its expiry, is never taken from here.
 */
const cache = new Map<string, { token: string; expiresAt: number }>();

/** Forgets this process's copy of a mailbox's token (after a reconnect, or in a test playing a second worker). */
export function forgetAccessToken(mailboxId?: string): void {
  if (mailboxId) cache.delete(mailboxId);
  else cache.clear();
}

/** The stored access token, when it is neither near expiry nor the one a server just refused. */
function usableToken(row: GrantRow, now: Date, refused?: string): string | undefined {
  if (!row.accessTokenEnc || !row.accessExpiresAt) return undefined;
  if (row.accessExpiresAt.getTime() - REFRESH_MARGIN_MS <= now.getTime()) return undefined;
  const token = decryptSecret(row.accessTokenEnc);
  return token === refused ? undefined : token;
}

function remember(mailboxId: string, token: string, expiresAt: Date): string {
  cache.set(mailboxId, { token, expiresAt: expiresAt.getTime() });
  return token;
}

const revokedError = (row: GrantRow) =>
  new OAuthError("revoked", row.lastError ?? "The provider no longer accepts this mailbox's consent", "invalid_grant");

/**
 * A valid access token for an OAuth mailbox: from memory, else from the row, else refreshed. `refused`
 * is a token an SMTP or IMAP server just turned down: it is replaced even if it has not expired.
 * Throws OAuthError: `revoked` once the provider refused the refresh token for good (it is not asked
 * again until the mailbox is reconnected), `refused`/`unreachable` for other failures.
 */
export async function accessTokenFor(db: DbOrTx, clock: Clock, mailboxId: string, refused?: string): Promise<string> {
  const now = clock.now();
  const hit = cache.get(mailboxId);
  if (hit && hit.token !== refused && hit.expiresAt - REFRESH_MARGIN_MS > now.getTime()) return hit.token;
  const [row] = await db.select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, mailboxId));
  if (!row) throw new OAuthError("revoked", "This mailbox has no OAuth consent on record; reconnect it");
  const token = usableToken(row, now, refused);
  if (token && row.accessExpiresAt) return remember(mailboxId, token, row.accessExpiresAt);
  if (row.revokedAt) throw revokedError(row);
  return refreshLocked(db, clock, mailboxId, refused);
}

type RefreshResult = { ok: true; token: string; expiresAt: Date } | { ok: false; error: OAuthError };

/**
 * Refreshes under `SELECT … FOR UPDATE` on the grant row: a second worker wanting the same mailbox waits
 * for the first, then finds the new token on the row and makes no call of its own — one refresh
 * token is never spent twice (Microsoft rotates them; the loser of a race would hold a dead one).
 * The outcome, failure included, is written before the lock is let go. A bulk-connected mailbox has no
 * refresh token: its app grant (a service account's JWT, a tenant's client credentials) mints the token,
 * under the same lock so that two workers still make one request.
 */
async function refreshLocked(db: DbOrTx, clock: Clock, mailboxId: string, refused?: string): Promise<string> {
  const result = await db.transaction(async (tx): Promise<RefreshResult> => {
    const [row] = await tx.select().from(mailboxOauth).where(eq(mailboxOauth.mailboxId, mailboxId)).for("update");
    if (!row) return { ok: false, error: new OAuthError("revoked", "This mailbox has no OAuth consent on record; reconnect it") };
    const now = clock.now();
    const token = usableToken(row, now, refused);
    if (token && row.accessExpiresAt) return { ok: true, token, expiresAt: row.accessExpiresAt };
    if (row.revokedAt) return { ok: false, error: revokedError(row) };
    try {
      const appGrant = await appGrantOf(tx, mailboxId);
      const fresh = appGrant ? await mintAppToken(tx, row, appGrant, now) : await refreshGrant(row);
      const expiresAt = accessExpiry(fresh, clock.now());
      await tx
        .update(mailboxOauth)
        .set({
          accessTokenEnc: encryptSecret(fresh.access_token),
          accessExpiresAt: expiresAt,
          // Microsoft sends a new refresh token with each refresh; Google keeps the first.
          ...(fresh.refresh_token ? { refreshTokenEnc: encryptSecret(fresh.refresh_token) } : {}),
          ...(fresh.scope ? { scopes: fresh.scope } : {}),
          refreshedAt: now,
          lastError: null,
          lastErrorAt: null,
          updatedAt: now,
        })
        .where(eq(mailboxOauth.mailboxId, mailboxId));
      return { ok: true, token: fresh.access_token, expiresAt };
    } catch (e) {
      const error = e instanceof OAuthError ? e : new OAuthError("refused", (e as Error).message);
      // A revoked grant's access token goes with it: it is usually the one a server just refused, and
      // kept it would be served again (here, or from another worker's read of the row) for a login
      // bound to fail until it expires.
      const revoked = error.kind === "revoked" ? { revokedAt: now, accessTokenEnc: null, accessExpiresAt: null } : {};
      await tx
        .update(mailboxOauth)
        .set({ lastError: error.message, lastErrorAt: now, updatedAt: now, ...revoked })
        .where(eq(mailboxOauth.mailboxId, mailboxId));
      return { ok: false, error };
    }
  });
  if (!result.ok) {
    cache.delete(mailboxId);
    throw result.error;
  }
  return remember(mailboxId, result.token, result.expiresAt);
}

/** One refresh_token grant at the mailbox's provider. An app no longer configured is a refusal with the variables to set. */
async function refreshGrant(row: GrantRow) {
  let app: ReturnType<typeof oauthApp>;
  try {
    app = oauthApp(row.provider);
  } catch (e) {
    if (e instanceof AppError) throw new OAuthError("refused", e.message);
    throw e;
  }
  const grant: Record<string, string> = { grant_type: "refresh_token", refresh_token: decryptSecret(row.refreshTokenEnc) };
  // Microsoft's v2 endpoint wants the scopes again on a refresh; Google's takes none.
  if (app.id === "MICROSOFT") grant.scope = app.scopes.filter((s) => s !== "openid" && s !== "email" && s !== "profile").join(" ");
  return tokenRequest(app, grant);
}
