import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";

/** Someone who can sign in at the peer's consent page. */
export interface OAuthUser {
  email: string;
  sub: string;
  /** Microsoft's directory id (goes into `tid`). */
  tenant?: string;
}

export interface OAuthPeerOptions {
  clientId: string;
  clientSecret: string;
  /** `google`: one refresh token kept for good; `microsoft`: a new one at each refresh (the old one dies), Microsoft's claims. */
  flavor: "google" | "microsoft";
  /** The peer's clock (token expiry), the same injectable clock the app is tested with. */
  now?: () => Date;
  tokenTtlS?: number;
}

interface Issued {
  user: OAuthUser;
  expiresAt: number;
}

type Body = Record<string, string | undefined>;
type TokenResponse = { statusCode: number; body: Record<string, unknown> };

/**
 * An OAuth 2.0 / OIDC server standing in for Google or Microsoft (oauth2-mock-server, wrapped).
 * The package answers any code and any refresh token; the wrapper makes it behave like a provider:
 * client credentials checked, codes one-time and bound to the redirect URI and the PKCE challenge
 * (the package checks the verifier against it), refresh tokens known, revocable (`invalid_grant`)
 * and rotated for Microsoft, access tokens expiring on the test's clock, and the id_token naming
 * whoever consented (`consentAs`). `validToken` is what the SMTP and IMAP peers ask.
 */
export async function startOAuthPeer(opts: OAuthPeerOptions) {
  const now = () => (opts.now ? opts.now() : new Date()).getTime();
  const ttl = opts.tokenTtlS ?? 3600;
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const base = (server.issuer.url as string).replace(/\/$/, "");
  let signedIn: OAuthUser | null = null;
  let grantedScope: ((requested: string) => string) | undefined;
  const codes = new Map<string, { user: OAuthUser; redirectUri: string; challenge: boolean; scope: string }>();
  const refreshTokens = new Map<string, { user: OAuthUser; revoked: boolean }>();
  const accessTokens = new Map<string, Issued>();
  const stats = { codeExchanges: 0, refreshes: 0, refused: 0 };

  server.service.on("beforeAuthorizeRedirect", (redirect: { url: URL }, req: IncomingMessage & { query: Body }) => {
    const code = redirect.url.searchParams.get("code");
    if (!code) return;
    if (!signedIn) {
      redirect.url.searchParams.delete("code");
      redirect.url.searchParams.set("error", "access_denied");
      redirect.url.searchParams.set("error_description", "The user declined the consent");
      return;
    }
    const requested = req.query.scope ?? "";
    const scope = grantedScope ? grantedScope(requested) : requested;
    codes.set(code, { user: signedIn, redirectUri: req.query.redirect_uri ?? "", challenge: Boolean(req.query.code_challenge), scope });
  });

  /** Whose token the request is for: the code's or the refresh token's user (set as the request arrives). */
  const userOf = new WeakMap<object, OAuthUser>();
  server.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }, req: { body: Body }) => {
    const user = userOf.get(req);
    const t = Math.floor(now() / 1000);
    Object.assign(token.payload, { iat: t, nbf: t - 10, exp: t + ttl });
    if (!user) return;
    token.payload.sub = user.sub;
    if (opts.flavor === "google") Object.assign(token.payload, { email: user.email, email_verified: true });
    else Object.assign(token.payload, { preferred_username: user.email, oid: user.sub, tid: user.tenant ?? "tenant-1" });
  });

  const fail = (res: TokenResponse, status: number, error: string, description: string) => {
    stats.refused++;
    res.statusCode = status;
    res.body = { error, error_description: description };
  };

  function issue(res: TokenResponse, user: OAuthUser, scope: string | undefined) {
    const at = res.body.access_token as string;
    accessTokens.set(at, { user, expiresAt: now() + ttl * 1000 });
    res.body.expires_in = ttl;
    if (scope) res.body.scope = scope;
  }

  server.service.on("beforeResponse", (res: TokenResponse, req: { body: Body }) => {
    const b = req.body;
    if (b.client_id !== opts.clientId || b.client_secret !== opts.clientSecret) {
      return fail(res, 401, "invalid_client", "Unknown client or wrong secret");
    }
    if (res.statusCode !== 200) return; // the package's own refusal (a PKCE verifier that does not match)
    if (b.grant_type === "authorization_code") {
      const c = codes.get(b.code ?? "");
      codes.delete(b.code ?? "");
      if (!c) return fail(res, 400, "invalid_grant", "The code is unknown or was already used");
      if (c.redirectUri !== b.redirect_uri) return fail(res, 400, "invalid_grant", "redirect_uri does not match the authorization request");
      if (c.challenge && !b.code_verifier) return fail(res, 400, "invalid_grant", "code_verifier is required");
      stats.codeExchanges++;
      refreshTokens.set(res.body.refresh_token as string, { user: c.user, revoked: false });
      return issue(res, c.user, c.scope);
    }
    if (b.grant_type === "refresh_token") {
      const r = refreshTokens.get(b.refresh_token ?? "");
      if (!r || r.revoked) return fail(res, 400, "invalid_grant", "Token has been expired or revoked.");
      stats.refreshes++;
      if (opts.flavor === "microsoft") {
        r.revoked = true; // rotated: the old one is spent
        refreshTokens.set(res.body.refresh_token as string, { user: r.user, revoked: false });
      } else delete res.body.refresh_token;
      delete res.body.id_token;
      return issue(res, r.user, undefined);
    }
    fail(res, 400, "unsupported_grant_type", "Only authorization_code and refresh_token");
  });

  // The user a token request is for must be known before the tokens are signed: look it up as the request arrives.
  server.service.prependListener("beforeTokenSigning", (_t: unknown, req: { body: Body }) => {
    if (userOf.has(req)) return;
    const b = req.body ?? {};
    const user = b.grant_type === "authorization_code" ? codes.get(b.code ?? "")?.user : refreshTokens.get(b.refresh_token ?? "")?.user;
    if (user) userOf.set(req, user);
  });

  /** The user withdraws the consent: their refresh and access tokens stop working. */
  function revoke(email: string) {
    for (const r of refreshTokens.values()) if (r.user.email.toLowerCase() === email.toLowerCase()) r.revoked = true;
    for (const [t, a] of accessTokens) if (a.user.email.toLowerCase() === email.toLowerCase()) accessTokens.delete(t);
  }

  // POST /revoke (JSON): `{ token }` revokes the grant of a refresh or access token (RFC 7009); `{ user }` is the
  // user removing the app at their account's security page. A Playwright spec, in another process than this
  // peer, revokes a consent this way.
  server.service.on("beforeRevoke", (res: { statusCode: number }, req: { body?: Body }) => {
    const b = req.body ?? {};
    const user = b.user ?? refreshTokens.get(b.token ?? "")?.user.email ?? accessTokens.get(b.token ?? "")?.user.email;
    if (user) revoke(user);
    else res.statusCode = 400;
  });

  return {
    url: base,
    revokeUrl: `${base}/revoke`,
    authUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    userinfoUrl: `${base}/userinfo`,
    stats,
    /** Who signs in and consents at the next authorize request (null: the user declines). */
    consentAs(user: OAuthUser | null) {
      signedIn = user;
    },
    /** What the user grants of the requested scopes (Google lets them untick some). */
    grantScopes(fn: ((requested: string) => string) | undefined) {
      grantedScope = fn;
    },
    /** The user withdraws the consent: their refresh and access tokens stop working. */
    revoke,
    /** The provider drops a user's access tokens early (the refresh token still works): servers refuse the token in hand. */
    dropAccessTokens(email: string) {
      for (const [t, a] of accessTokens) if (a.user.email.toLowerCase() === email.toLowerCase()) accessTokens.delete(t);
    },
    /** Whether a bearer token logs `email` in now (the SMTP/IMAP peers' check). */
    validToken(email: string, token: string): boolean {
      const a = accessTokens.get(token);
      return Boolean(a && a.user.email.toLowerCase() === email.toLowerCase() && a.expiresAt > now());
    },
    /** The newest unexpired token of a user (hoodiecrow compares against one token). */
    currentToken(email: string): string | undefined {
      let best: [string, Issued] | undefined;
      for (const e of accessTokens) {
        if (e[1].user.email.toLowerCase() !== email.toLowerCase() || e[1].expiresAt <= now()) continue;
        if (!best || e[1].expiresAt >= best[1].expiresAt) best = e;
      }
      return best?.[0];
    },
    /** The env the app reads to use this peer as the provider. */
    env(prefix: "GOOGLE" | "MICROSOFT"): Record<string, string> {
      return {
        [`${prefix}_CLIENT_ID`]: opts.clientId,
        [`${prefix}_CLIENT_SECRET`]: opts.clientSecret,
        [`${prefix}_AUTH_URL`]: `${base}/authorize`,
        [`${prefix}_TOKEN_URL`]: `${base}/token`,
        ...(prefix === "GOOGLE" ? { GOOGLE_USERINFO_URL: `${base}/userinfo` } : {}),
      };
    },
    close: () => server.stop(),
  };
}

export type OAuthPeer = Awaited<ReturnType<typeof startOAuthPeer>>;
