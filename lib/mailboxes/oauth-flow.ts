import { and, eq } from "drizzle-orm";
import { memberships, oauthFlows } from "../../db/schema";
import { type Ctx, type JobCtx, requireAccess } from "../ctx";
import { decryptSecret, encryptSecret } from "../crypto/secretbox";
import { AppError, BadRequestError, ForbiddenError } from "../errors";
import { finishAdminConsent } from "../oauth/admin-consent";
import { type ConnectOptions, saveOAuthMailbox } from "./oauth-connect";
import { OAuthError, oauthErrorText, tokenRequest } from "../oauth/http";
import { identityOf } from "../oauth/identity";
import { type OAuthApp, type OAuthProviderId, oauthApp } from "../oauth/providers";
import { openFlow, pkcePair, verifyState } from "../oauth/state";

export interface StartInput extends ConnectOptions {
  /** The address to pre-fill at the provider's sign-in (a hint only: the address saved is the one in the token). */
  loginHint?: string;
}

/**
 * Starts a consent: records the flow (its PKCE verifier sealed) and returns the provider's consent URL,
 * whose state is signed and names the workspace and the user. An API key's flow belongs
 * to the member who created the key.
 */
export async function startConsent(ctx: Ctx, provider: OAuthProviderId, input: StartInput) {
  requireAccess(ctx, "write");
  const app = oauthApp(provider);
  const { verifier, challenge } = pkcePair();
  const options: ConnectOptions = { senderName: input.senderName, warmupGroup: input.warmupGroup, tagIds: input.tagIds };
  const { state, expiresAt } = await openFlow(ctx, provider, "A consent", {
    codeVerifierEnc: encryptSecret(verifier),
    options: JSON.parse(JSON.stringify(options)),
  });
  const url = new URL(app.authUrl);
  const params: Record<string, string> = {
    client_id: app.clientId,
    response_type: "code",
    redirect_uri: app.redirectUri,
    scope: app.scopes.join(" "),
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...app.authParams,
  };
  if (input.loginHint) params.login_hint = input.loginHint;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url: url.toString(), provider, redirectUri: app.redirectUri, expiresAt: expiresAt.toISOString() };
}

/** What the provider sent the browser back with. */
export interface CallbackInput {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
  /** The signed-in dashboard user presenting the callback, if any. */
  sessionUserId?: string;
  /** Microsoft's admin-consent answer: `admin_consent=True` and the tenant that consented. */
  adminConsent?: string;
  tenant?: string;
}

const refuse = (message: string) => new BadRequestError(message);

/** The flow the state names, taken once (deleted as it is read, so a replayed callback finds nothing). */
async function takeFlow(job: JobCtx, provider: OAuthProviderId, input: CallbackInput) {
  if (!input.state) throw refuse("The provider's answer has no state; start connecting the mailbox again");
  const now = job.clock.now();
  const check = verifyState(input.state, now);
  if (!check.ok) throw refuse(check.reason);
  const p = check.payload;
  if (p.provider !== provider) throw refuse("The sign-in link belongs to another provider");
  const [flow] = await job.db.delete(oauthFlows).where(eq(oauthFlows.id, p.flowId)).returning();
  if (!flow || flow.workspaceId !== p.workspaceId || flow.userId !== p.userId || flow.provider !== provider) {
    throw refuse("This sign-in link was already used or is unknown; start connecting the mailbox again");
  }
  if (flow.expiresAt.getTime() < now.getTime()) throw refuse("The sign-in link has expired; start connecting the mailbox again");
  // A flow started in the dashboard must come back to the same signed-in user: a consent URL passed to
  // someone else must not connect their mailbox into this workspace behind their back.
  if (flow.actorType === "session" && input.sessionUserId !== flow.userId) {
    throw new ForbiddenError("Sign in to Outreach as the user who started connecting this mailbox, then try again");
  }
  const [member] = await job.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, flow.workspaceId), eq(memberships.userId, flow.userId)));
  if (!member) throw new ForbiddenError("The user who started connecting this mailbox is no longer in the workspace");
  const ctx: Ctx = { ...job, workspaceId: flow.workspaceId, actor: { type: "session", userId: flow.userId, role: member.role } };
  return { ctx, verifier: decryptSecret(flow.codeVerifierEnc), options: flow.options as ConnectOptions & { adminConsent?: boolean } };
}

/** The mail scopes the app asked for must all be granted (Google lets the user untick them one by one). */
function requireMailScopes(app: OAuthApp, granted: string | undefined): void {
  if (!granted) return;
  const have = new Set(granted.split(/\s+/).map((s) => s.toLowerCase()));
  const missing = app.scopes.filter((s) => s.startsWith("https://") && !have.has(s.toLowerCase()));
  if (missing.length) {
    throw refuse(
      `The consent did not include ${missing.join(" and ")}, which sending and reading need; connect again and allow mail access`,
    );
  }
}

/**
 * Finishes a consent: checks the state and takes its flow, exchanges the code (with the PKCE
 * verifier), reads the address from the token and saves the mailbox. Every failure is an AppError
 * (400, or 403 for the wrong user, 502 when the provider cannot be reached) with the provider's reason.
 * An admin-consent flow records the consented tenant instead (`tenant` in the result).
 */
export async function finishConsent(job: JobCtx, provider: OAuthProviderId, input: CallbackInput) {
  const { ctx, verifier, options } = await takeFlow(job, provider, input);
  // An admin consent (admin-consent.ts) comes back to the same redirect URI: one URI to register per app.
  if (options.adminConsent) return { ctx, tenant: await finishAdminConsent(ctx, input) };
  const app = oauthApp(provider);
  if (input.error) {
    throw refuse(`${app.name} did not grant access: ${oauthErrorText(input.error, input.errorDescription)}`);
  }
  if (!input.code) throw refuse(`${app.name} sent no authorization code`);
  try {
    const tokens = await tokenRequest(app, {
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: app.redirectUri,
      code_verifier: verifier,
    });
    if (!tokens.refresh_token)
      throw refuse(`${app.name} sent no refresh token; remove the app's access from the account and connect again`);
    requireMailScopes(app, tokens.scope);
    const who = await identityOf(app, tokens, ctx.clock.now());
    const { row, created } = await saveOAuthMailbox(ctx, app, who, tokens, options);
    return { ctx, row, created };
  } catch (e) {
    if (e instanceof OAuthError) {
      throw e.kind === "unreachable" ? new AppError("UPSTREAM_ERROR", e.message) : refuse(e.message);
    }
    throw e;
  }
}
