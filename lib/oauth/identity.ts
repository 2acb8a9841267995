import { normalizeEmail } from "../emails";
import { OAuthError, type TokenResponse, userinfo } from "./http";
import type { OAuthApp } from "./providers";

/** Who consented: the mailbox address (never typed by the user), the account's id and, for Microsoft, its directory. */
export interface OAuthIdentity {
  email: string;
  subject: string;
  tenantId: string | null;
}

/**
 * The id_token's claims. Its signature is not checked: it came straight from the token endpoint over
 * TLS in exchange for our client secret, which OIDC Core 3.1.3.7 accepts in place of the signature. The
 * audience and expiry still are, so a token minted for another app is never taken.
 */
export function idTokenClaims(idToken: string, clientId: string, now: Date): Record<string, unknown> {
  const part = idToken.split(".")[1];
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    throw new OAuthError("refused", "The provider's id_token could not be read");
  }
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(clientId)) throw new OAuthError("refused", "The provider's id_token was issued to another application");
  // A minute of leeway: the provider's clock and ours are not the same clock.
  if (typeof claims.exp === "number" && claims.exp * 1000 < now.getTime() - 60_000) {
    throw new OAuthError("refused", "The provider's id_token has expired");
  }
  return claims;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/**
 * Google: `email` when `email_verified` (the id_token, else userinfo). Microsoft: `preferred_username`
 * — the sign-in name, which is the mailbox's address for Exchange Online and what XOAUTH2 logs in as —
 * else `email`.
 */
async function addressOf(app: OAuthApp, claims: Record<string, unknown>, accessToken: string): Promise<string | undefined> {
  if (app.id === "MICROSOFT") return str(claims.preferred_username) ?? str(claims.email) ?? str(claims.upn);
  let info = claims;
  if (!str(info.email)) info = { ...claims, ...(await userinfo(app, accessToken)) };
  if (info.email_verified === false || info.email_verified === "false") {
    throw new OAuthError("refused", `Google has not verified the address ${String(info.email)}`);
  }
  return str(info.email);
}

/** The identity behind a token response: from its id_token (and Google's userinfo when needed). */
export async function identityOf(app: OAuthApp, tokens: TokenResponse, now: Date): Promise<OAuthIdentity> {
  if (!tokens.id_token)
    throw new OAuthError("refused", `${app.name} sent no id_token; the app must be granted the openid and email scopes`);
  const claims = idTokenClaims(tokens.id_token, app.clientId, now);
  const raw = await addressOf(app, claims, tokens.access_token);
  const n = raw ? normalizeEmail(raw) : undefined;
  if (!n?.ok) throw new OAuthError("refused", `${app.name} did not say which mailbox this is (no usable address in the token)`);
  const subject = app.id === "MICROSOFT" ? (str(claims.oid) ?? str(claims.sub)) : str(claims.sub);
  if (!subject) throw new OAuthError("refused", `${app.name}'s id_token names no account (sub)`);
  return { email: n.email, subject, tenantId: app.id === "MICROSOFT" ? (str(claims.tid) ?? null) : null };
}
