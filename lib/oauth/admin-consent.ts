import { and, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { microsoftTenants } from "../../db/schema";
import { type Ctx, requireAccess } from "../ctx";
import { encryptSecret } from "../crypto/secretbox";
import { BadRequestError, ConflictError, ValidationError } from "../errors";
import { oauthErrorText, type TokenResponse, tokenRequest } from "./http";
import { oauthApp, oauthEnv } from "./providers";
import { openFlow } from "./state";

/** App-only tokens for Exchange Online: every application permission the app holds on outlook.office365.com. */
export const EXCHANGE_APP_SCOPE = "https://outlook.office365.com/.default";

const fill = (template: string, tenant: string) => template.replaceAll("{tenant}", encodeURIComponent(tenant));

/** The admin-consent page; MICROSOFT_ADMIN_CONSENT_URL (with `{tenant}`) points tests at a local peer. */
export function adminConsentUrl(tenant: string): string {
  return fill(oauthEnv("MICROSOFT_ADMIN_CONSENT_URL") ?? "https://login.microsoftonline.com/{tenant}/adminconsent", tenant);
}

/** The tenant's own token endpoint (client credentials need a tenant, never `common`); MICROSOFT_APP_TOKEN_URL overrides it. */
export function tenantTokenUrl(tenant: string): string {
  return fill(oauthEnv("MICROSOFT_APP_TOKEN_URL") ?? "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token", tenant);
}

/** The tenant a consent page is opened for: the one asked for, else MICROSOFT_TENANT when it names one directory, else `organizations`. */
function consentTenant(asked: string | undefined): string {
  if (asked) return asked;
  const configured = oauthEnv("MICROSOFT_TENANT");
  return configured && configured !== "common" && configured !== "consumers" ? configured : "organizations";
}

/**
 * POST /mailboxes/oauth/microsoft/admin-consent: the URL a tenant's admin opens once to grant the app's
 * application permissions (IMAP.AccessAsApp, SMTP.SendAsApp) for the whole organisation. The flow is an
 * oauth_flows row like a consent's (signed state, one use, the same user for a dashboard flow).
 */
export async function startAdminConsent(ctx: Ctx, input: { tenant?: string }) {
  requireAccess(ctx, "write");
  const app = oauthApp("MICROSOFT");
  // No code comes back from an admin consent, so there is no PKCE verifier to keep.
  const { state, expiresAt } = await openFlow(ctx, "MICROSOFT", "An admin consent", {
    codeVerifierEnc: encryptSecret(""),
    options: { adminConsent: true },
  });
  const tenant = consentTenant(input.tenant);
  const url = new URL(adminConsentUrl(tenant));
  for (const [k, v] of Object.entries({ client_id: app.clientId, redirect_uri: app.redirectUri, state })) url.searchParams.set(k, v);
  return { url: url.toString(), tenant, redirectUri: app.redirectUri, expiresAt: expiresAt.toISOString() };
}

/** What Microsoft sends back from the admin-consent page. */
export interface AdminConsentAnswer {
  adminConsent?: string;
  tenant?: string;
  error?: string;
  errorDescription?: string;
}

/** Records the tenant an admin consented for (the flow already checked by the callback). Returns whether it is new to the workspace. */
export async function finishAdminConsent(ctx: Ctx, answer: AdminConsentAnswer) {
  if (answer.error) {
    throw new BadRequestError(`Microsoft did not grant admin consent: ${oauthErrorText(answer.error, answer.errorDescription)}`);
  }
  const tenantId = answer.tenant?.trim();
  if (answer.adminConsent?.toLowerCase() !== "true" || !tenantId) {
    throw new BadRequestError("Microsoft's answer does not confirm an admin consent (admin_consent=True and the tenant)");
  }
  // Microsoft's redirect is not signed, so the tenant id in it is only as good as the browser that carries it.
  // One app serves every workspace of the installation: a tenant another workspace recorded is never handed over.
  const [elsewhere] = await ctx.db
    .select({ workspaceId: microsoftTenants.workspaceId })
    .from(microsoftTenants)
    .where(and(eq(microsoftTenants.tenantId, tenantId), ne(microsoftTenants.workspaceId, ctx.workspaceId)))
    .limit(1);
  if (elsewhere) throw new ConflictError(`The Microsoft tenant ${tenantId} is already connected to another workspace of this installation`);
  const now = ctx.clock.now();
  const userId = ctx.actor.type === "system" ? null : ctx.actor.userId;
  const inserted = await ctx.db
    .insert(microsoftTenants)
    .values({ workspaceId: ctx.workspaceId, tenantId, consentedBy: userId, consentedAt: now })
    .onConflictDoUpdate({
      target: [microsoftTenants.workspaceId, microsoftTenants.tenantId],
      set: { consentedBy: userId, consentedAt: now },
    })
    .returning({ consentedAt: microsoftTenants.consentedAt });
  return { tenantId, consentedAt: (inserted[0]?.consentedAt ?? now).toISOString() };
}

/** GET /mailboxes/oauth/microsoft/tenants. */
export async function consentedTenants(ctx: Ctx) {
  const rows = await listTenants(ctx.db, ctx.workspaceId);
  return { tenants: rows.map((t) => ({ tenantId: t.tenantId, consentedAt: t.consentedAt.toISOString() })) };
}

export async function listTenants(db: DbOrTx, workspaceId: string) {
  return db.select().from(microsoftTenants).where(eq(microsoftTenants.workspaceId, workspaceId)).orderBy(microsoftTenants.consentedAt);
}

/** The consented tenant a bulk connect uses: the one named, else the workspace's only one. 400 on tenantId otherwise. */
export async function pickTenant(ctx: Ctx, asked: string | undefined): Promise<string> {
  if (asked) {
    const [row] = await ctx.db
      .select()
      .from(microsoftTenants)
      .where(and(eq(microsoftTenants.workspaceId, ctx.workspaceId), eq(microsoftTenants.tenantId, asked)));
    if (!row) throw ValidationError.field("tenantId", "no admin consent is recorded for this tenant; open the admin-consent URL first");
    return asked;
  }
  const all = await listTenants(ctx.db, ctx.workspaceId);
  if (all.length === 1) return all[0].tenantId;
  if (!all.length)
    throw ValidationError.field("tenantId", "no Microsoft tenant has granted admin consent yet; POST …/microsoft/admin-consent first");
  throw ValidationError.field("tenantId", `several tenants consented (${all.map((t) => t.tenantId).join(", ")}); name one`);
}

/** An app-only access token for Exchange Online in `tenant` (client credentials grant): it logs in to any mailbox the app may access there. */
export async function appOnlyToken(tenant: string): Promise<TokenResponse> {
  const app = oauthApp("MICROSOFT");
  return tokenRequest({ ...app, tokenUrl: tenantTokenUrl(tenant) }, { grant_type: "client_credentials", scope: EXCHANGE_APP_SCOPE });
}
