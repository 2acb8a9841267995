import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { mailboxOauth, mailboxOauthAppGrants } from "../../db/schema";
import { type Ctx, withTransaction } from "../ctx";
import { encryptSecret } from "../crypto/secretbox";
import { PROVIDERS, providerOverride } from "../mail/providers";
import { addMailboxTags, checkTags, upsertMailbox } from "./connect";
import { checkMailbox } from "./health-check";
import { findMailbox, type MailboxRow, mailboxViews } from "./view";
import type { AppGrantKind } from "../oauth/app-grants";
import type { TokenResponse } from "../oauth/http";
import type { OAuthIdentity } from "../oauth/identity";
import type { OAuthApp, OAuthProviderId } from "../oauth/providers";
import { accessExpiry, forgetAccessToken } from "../oauth/tokens";

/** What the user chose for the mailbox when starting the consent (kept on the flow row). */
export interface ConnectOptions {
  senderName?: string;
  warmupGroup?: string;
  tagIds?: string[];
}

/** An OAuth mailbox's SMTP and IMAP hosts: MAIL_PROVIDERS_FILE's for its address domain, else the provider's. */
export function oauthHosts(provider: OAuthProviderId, email: string) {
  return providerOverride(email.slice(email.lastIndexOf("@") + 1)) ?? PROVIDERS[provider];
}

/** Tags deleted while the user was at the provider are dropped rather than failing a consent already given. */
async function liveTags(db: DbOrTx, workspaceId: string, tagIds: string[] | undefined): Promise<string[]> {
  if (!tagIds?.length) return [];
  return checkTags(db, workspaceId, tagIds).catch(() => []);
}

/**
 * Saves an OAuth-connected mailbox: created, or — the same address again — its login replaced by the new
 * grant with its history and warmup kept (upsertMailbox; a mailbox whose login was failing emits
 * `mailbox.reconnected`). Hosts are the provider's (or MAIL_PROVIDERS_FILE's for the address domain);
 * there is no password, so the password columns hold a sealed empty string. `appGrant`: a bulk connect's
 * mailbox, whose tokens come from the service account or the tenant's app rather than a refresh token.
 */
export async function saveOAuthMailbox(
  ctx: Ctx,
  app: Pick<OAuthApp, "id" | "scopes">,
  who: OAuthIdentity,
  tokens: TokenResponse,
  options: ConnectOptions,
  appGrant?: AppGrantKind,
): Promise<{ row: MailboxRow; created: boolean }> {
  const settings = oauthHosts(app.id, who.email);
  const none = encryptSecret("");
  const now = ctx.clock.now();
  const tagIds = await liveTags(ctx.db, ctx.workspaceId, options.tagIds);
  const grant = {
    workspaceId: ctx.workspaceId,
    provider: app.id,
    subject: who.subject,
    tenantId: who.tenantId,
    scopes: tokens.scope ?? app.scopes.join(" "),
    // A bulk-connected mailbox has none: its tokens are minted by its app grant (app-grants.ts).
    refreshTokenEnc: encryptSecret(tokens.refresh_token ?? ""),
    accessTokenEnc: encryptSecret(tokens.access_token),
    accessExpiresAt: accessExpiry(tokens, now),
    refreshedAt: now,
    lastError: null,
    lastErrorAt: null,
    revokedAt: null,
    updatedAt: now,
  };
  const saved = await withTransaction(ctx, async (tx, txCtx) => {
    const values = {
      email: who.email,
      provider: app.id,
      espClass: app.id,
      authType: "OAUTH" as const,
      smtpHost: settings.smtpHost,
      smtpPort: settings.smtpPort,
      smtpSecurity: settings.smtpSecurity,
      smtpUsername: who.email,
      smtpPasswordEnc: none,
      imapHost: settings.imapHost,
      imapPort: settings.imapPort,
      imapSecurity: settings.imapSecurity,
      imapUsername: who.email,
      imapPasswordEnc: none,
      senderName: options.senderName || undefined,
      warmupGroup: options.warmupGroup || undefined,
      // Checked now, as the periodic check's claim would record it: the consent's first check (checkedView)
      // or the bulk run's logins, so the periodic check does not log in again at once.
      lastCheckedAt: now,
    };
    const out = await upsertMailbox(txCtx, who.email, values, ["senderName", "warmupGroup"], "oauth");
    await tx
      .insert(mailboxOauth)
      .values({ mailboxId: out.row.id, ...grant, createdAt: now })
      .onConflictDoUpdate({ target: mailboxOauth.mailboxId, set: grant });
    // The newest way of connecting wins: a consent after a bulk connect gives the mailbox its own refresh token, and back.
    if (appGrant) {
      await tx
        .insert(mailboxOauthAppGrants)
        .values({ mailboxId: out.row.id, kind: appGrant, createdAt: now })
        .onConflictDoUpdate({ target: mailboxOauthAppGrants.mailboxId, set: { kind: appGrant } });
    } else await tx.delete(mailboxOauthAppGrants).where(eq(mailboxOauthAppGrants.mailboxId, out.row.id));
    return out;
  });
  forgetAccessToken(saved.row.id);
  await addMailboxTags(ctx.db, ctx.workspaceId, saved.row.id, tagIds);
  return saved;
}

/**
 * The connected mailbox as the API shows it, after the same login check every mailbox gets (so it
 * arrives HEALTHY, or LOGIN_FAILING with the server's reason, e.g. SMTP AUTH turned off for it).
 */
export async function checkedView(ctx: Ctx, row: MailboxRow) {
  await checkMailbox(ctx.db, ctx.clock, row).catch((error) => ctx.log.error("oauth: first check failed", { mailboxId: row.id, error }));
  const fresh = await findMailbox(ctx.db, ctx.workspaceId, row.id);
  return (await mailboxViews(ctx.db, [fresh ?? row], ctx.clock.now()))[0];
}
