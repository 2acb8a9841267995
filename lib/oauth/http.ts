import { z } from "zod";
import type { OAuthApp } from "./providers";

/**
 * A failed exchange with the provider's token endpoint. `revoked`: the grant is gone for good
 * (`invalid_grant`: consent withdrawn, password reset, account disabled) — only a reconnect helps;
 * `refused`: any other OAuth error (a misconfigured app, a bad code); `unreachable`: the network or a 5xx.
 */
export class OAuthError extends Error {
  constructor(
    readonly kind: "revoked" | "refused" | "unreachable",
    message: string,
    readonly oauthCode?: string,
  ) {
    super(message);
  }
}

/** The token endpoint's answer (RFC 6749 5.1), as far as we read it (some servers send expires_in as a string). */
const tokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  id_token: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

const TIMEOUT_MS = 15_000;

/**
 * An OAuth error as we show it: `code: description`. Microsoft's descriptions carry trace ids and
 * timestamps over several lines; the first line is the reason.
 */
export function oauthErrorText(code: string, description?: string): string {
  const first = description?.split(/\r?\n/)[0].trim();
  return first ? `${code}: ${first}` : code;
}

function oauthReason(body: Record<string, unknown>, status: number): { code?: string; text: string } {
  const code = typeof body.error === "string" ? body.error : undefined;
  const desc = typeof body.error_description === "string" ? body.error_description : undefined;
  return { code, text: code ? oauthErrorText(code, desc) : `HTTP ${status}` };
}

/** A token endpoint: an app's (with its credentials), or Google's for a service account's JWT grant (the assertion is the credential). */
export type TokenEndpoint = Pick<OAuthApp, "name" | "tokenUrl"> & Partial<Pick<OAuthApp, "clientId" | "clientSecret">>;

/** POSTs a grant to the token endpoint with the app's credentials (client_secret_post, which both providers take). */
export async function tokenRequest(app: TokenEndpoint, grant: Record<string, string>): Promise<TokenResponse> {
  const creds: Record<string, string> =
    app.clientId && app.clientSecret ? { client_id: app.clientId, client_secret: app.clientSecret } : {};
  const form = new URLSearchParams({ ...grant, ...creds });
  let res: Response;
  try {
    res = await fetch(app.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    throw new OAuthError("unreachable", `Could not reach ${app.name}'s token endpoint: ${(e as Error).message}`);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON: described by its status below */
  }
  const parsed = tokenResponse.safeParse(body);
  if (!res.ok || !parsed.success) {
    const { code, text: why } = oauthReason(body, res.status);
    if (res.status >= 500 || (!code && !res.ok)) throw new OAuthError("unreachable", `${app.name}'s token endpoint failed: ${why}`, code);
    throw new OAuthError(code === "invalid_grant" ? "revoked" : "refused", `${app.name} refused the token request: ${why}`, code);
  }
  return parsed.data;
}

/** GETs Google's userinfo with an access token (the address when an id_token does not carry it). */
export async function userinfo(app: OAuthApp, accessToken: string): Promise<Record<string, unknown>> {
  if (!app.userinfoUrl) return {};
  try {
    const res = await fetch(app.userinfoUrl, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new OAuthError("refused", `${app.name}'s userinfo answered HTTP ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    throw new OAuthError("unreachable", `Could not reach ${app.name}'s userinfo endpoint: ${(e as Error).message}`);
  }
}
