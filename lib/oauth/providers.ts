import { appUrl, serviceEnv } from "../env";
import { BadRequestError, NotFoundError } from "../errors";

export type OAuthProviderId = "GOOGLE" | "MICROSOFT";
export const OAUTH_PROVIDERS: OAuthProviderId[] = ["GOOGLE", "MICROSOFT"];

/** One provider's OAuth application, as configured in the environment. */
export interface OAuthApp {
  id: OAuthProviderId;
  name: string;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  /** Google's OIDC userinfo: the address when an id_token lacks it. Microsoft's is Graph, which our token cannot call. */
  userinfoUrl?: string;
  /** Microsoft's directory: `common` (any work or personal account), `organizations`, or one tenant's id. */
  tenant?: string;
  scopes: string[];
  /** Extra authorize parameters: Google only returns a refresh token for `access_type=offline`, and `prompt=consent` makes it send one again on a reconnect. */
  authParams: Record<string, string>;
  redirectUri: string;
}

/**
 * Scopes for IMAP and SMTP: Google's one mail scope covers both; Microsoft's are per protocol
 * on the Outlook resource, and `offline_access` is what gets a refresh token. `openid email` (and
 * Microsoft's `profile`) give the id_token the address is read from.
 */
export const SCOPES: Record<OAuthProviderId, string[]> = {
  GOOGLE: ["openid", "email", "https://mail.google.com/"],
  MICROSOFT: [
    "openid",
    "email",
    "profile",
    "offline_access",
    "https://outlook.office.com/IMAP.AccessAsUser.All",
    "https://outlook.office.com/SMTP.Send",
  ],
};

/** The environment variables each provider needs (what the routes and the dashboard name when they are missing). */
export const REQUIRED_ENV: Record<OAuthProviderId, (`GOOGLE_${string}` | `MICROSOFT_${string}`)[]> = {
  GOOGLE: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
  MICROSOFT: ["MICROSOFT_CLIENT_ID", "MICROSOFT_CLIENT_SECRET"],
};

/** An OAuth setting from the environment; blank counts as unset. */
export const oauthEnv = (name: `GOOGLE_${string}` | `MICROSOFT_${string}`) => serviceEnv.oauth(name);

/** Where the provider sends the browser back: the callback route under APP_URL (register exactly this in the provider's console). */
export function redirectUriFor(id: OAuthProviderId): string {
  return `${appUrl()}/api/oauth/${id.toLowerCase()}/callback`;
}

/** Which variables are missing for a provider (empty: configured). */
export function missingEnv(id: OAuthProviderId): string[] {
  return REQUIRED_ENV[id].filter((v) => !oauthEnv(v));
}

export function parseProvider(raw: string): OAuthProviderId | undefined {
  const up = raw.toUpperCase();
  return (OAUTH_PROVIDERS as string[]).includes(up) ? (up as OAuthProviderId) : undefined;
}

/** The provider a route's `{provider}` names (404 otherwise); `only`: a route that exists for one provider. */
export function requireProvider(raw: string, only?: OAuthProviderId): OAuthProviderId {
  const id = parseProvider(raw);
  if (!id || (only && id !== only))
    throw new NotFoundError(only ? `OAuth provider (${only.toLowerCase()} only)` : "OAuth provider (google or microsoft)");
  return id;
}

/** Thrown when a provider's app is not configured: 400 naming the variables to set. */
export class OAuthNotConfiguredError extends BadRequestError {
  constructor(
    readonly provider: OAuthProviderId,
    readonly missing: string[],
  ) {
    const name = provider === "GOOGLE" ? "Google" : "Microsoft";
    super(
      `${name} OAuth is not configured on this installation: set ${missing.join(" and ")} ` +
        "(see docs/oauth.md for creating the app and its redirect URI)",
      { provider, missing },
    );
  }
}

/**
 * The provider's app from the environment. Endpoint overrides (GOOGLE_AUTH_URL, GOOGLE_TOKEN_URL,
 * GOOGLE_USERINFO_URL, MICROSOFT_AUTH_URL, MICROSOFT_TOKEN_URL) exist so tests and air-gapped setups can
 * point at another authorization server; production leaves them unset.
 */
export function oauthApp(id: OAuthProviderId): OAuthApp {
  const missing = missingEnv(id);
  if (missing.length) throw new OAuthNotConfiguredError(id, missing);
  const redirectUri = redirectUriFor(id);
  if (id === "GOOGLE") {
    return {
      id,
      name: "Google",
      clientId: oauthEnv("GOOGLE_CLIENT_ID") as string,
      clientSecret: oauthEnv("GOOGLE_CLIENT_SECRET") as string,
      authUrl: oauthEnv("GOOGLE_AUTH_URL") ?? "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: oauthEnv("GOOGLE_TOKEN_URL") ?? "https://oauth2.googleapis.com/token",
      userinfoUrl: oauthEnv("GOOGLE_USERINFO_URL") ?? "https://openidconnect.googleapis.com/v1/userinfo",
      scopes: SCOPES.GOOGLE,
      authParams: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
      redirectUri,
    };
  }
  const tenant = oauthEnv("MICROSOFT_TENANT") ?? "common";
  const base = `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0`;
  return {
    id,
    name: "Microsoft",
    clientId: oauthEnv("MICROSOFT_CLIENT_ID") as string,
    clientSecret: oauthEnv("MICROSOFT_CLIENT_SECRET") as string,
    authUrl: oauthEnv("MICROSOFT_AUTH_URL") ?? `${base}/authorize`,
    tokenUrl: oauthEnv("MICROSOFT_TOKEN_URL") ?? `${base}/token`,
    tenant,
    scopes: SCOPES.MICROSOFT,
    // select_account: an agency connects many mailboxes from one browser; the last one's session must not be reused silently.
    authParams: { prompt: "select_account" },
    redirectUri,
  };
}

/** For the dashboard: which providers can be used, and what to set for the others. */
export function oauthStatus(): { provider: OAuthProviderId; configured: boolean; missing: string[]; redirectUri: string }[] {
  return OAUTH_PROVIDERS.map((provider) => {
    const missing = missingEnv(provider);
    return { provider, configured: missing.length === 0, missing, redirectUri: redirectUriFor(provider) };
  });
}
