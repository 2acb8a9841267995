import type { DbOrTx } from "../../db/client";
import type { Clock } from "../clock";
import { decryptSecret } from "../crypto/secretbox";
import { ImapError, type ImapConfig } from "../mail/imap";
import { type OutgoingMessage, SmtpError, type SmtpConfig, sendSmtp } from "../mail/smtp";
import { OAuthError } from "../oauth/http";
import { accessTokenFor } from "../oauth/tokens";
import type { MailboxRow } from "./view";

/** The SMTP or IMAP side of a mailbox's credentials. */
export type Protocol = "smtp" | "imap";
type LoginColumns<P extends Protocol> = `${P}Host` | `${P}Port` | `${P}Security` | `${P}Username` | `${P}PasswordEnc`;

/** The saved SMTP or IMAP login of a mailbox, its password decrypted. */
export function loginOf<P extends Protocol>(m: Pick<MailboxRow, LoginColumns<P>>, p: P): SmtpConfig & ImapConfig {
  const row = m as Pick<MailboxRow, LoginColumns<Protocol>>;
  return {
    host: row[`${p}Host`],
    port: row[`${p}Port`],
    security: row[`${p}Security`],
    username: row[`${p}Username`],
    password: decryptSecret(row[`${p}PasswordEnc`]),
  };
}

export const smtpConfigOf = (m: Pick<MailboxRow, LoginColumns<"smtp">>): SmtpConfig => loginOf(m, "smtp");

/** Where an OAuth login gets its token: the database (the grant row, locked for a refresh) and the clock expiry is judged by. */
export interface LoginEnv {
  db: DbOrTx;
  clock: Clock;
}

export type LoginRow<P extends Protocol> = Pick<MailboxRow, "id" | "authType" | LoginColumns<P>>;

/**
 * The login to use now: a password mailbox's saved one (as loginOf), an OAuth mailbox's with a valid
 * access token (refreshed when near expiry, or when `refused` names the token a server just turned
 * down). A provider refusing the refresh comes out as the protocol's own `auth` error, with the
 * provider's words, so every caller records it as it records a refused password (LOGIN_FAILING).
 */
export async function loginFor<P extends Protocol>(
  env: LoginEnv,
  m: LoginRow<P>,
  p: P,
  refused?: string,
): Promise<SmtpConfig & ImapConfig> {
  if (m.authType !== "OAUTH") return loginOf(m, p);
  let accessToken: string;
  try {
    accessToken = await accessTokenFor(env.db, env.clock, m.id, refused);
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    const kind = e.kind === "unreachable" ? "unreachable" : "auth";
    throw p === "smtp" ? new SmtpError(kind, e.message) : new ImapError(kind, e.message);
  }
  // The password columns of an OAuth mailbox hold a sealed empty string (connect.ts): the login is the token.
  return { ...loginOf(m, p), accessToken };
}

/** A server's refusal of the login (SMTP 535/EAUTH, IMAP AUTHENTICATE/LOGIN failed), however the error reached us. */
export function isAuthRefusal(e: unknown): boolean {
  if (e instanceof SmtpError || e instanceof ImapError) return e.kind === "auth";
  const err = e as { code?: string; responseCode?: number; authenticationFailed?: boolean } | undefined;
  return err?.code === "EAUTH" || err?.responseCode === 535 || err?.authenticationFailed === true;
}

/**
 * Logins one OAuth call may try. Each retry is offered a token other than the one just refused: another
 * worker's newer token from the row first (this process's memory can be older than the row), then a
 * refresh, whose refusal (invalid_grant) is the provider's own word for why. Three covers both.
 */
const OAUTH_LOGIN_TRIES = 3;

/**
 * Runs `fn` with the mailbox's login. For an OAuth mailbox whose token the server refused, again with
 * a token other than the refused one (it may have been revoked early, expired on the server's clock, or
 * been replaced by another worker's refresh), up to OAUTH_LOGIN_TRIES logins; the last refusal is the
 * caller's to record. A password mailbox runs once, as before.
 */
export async function withLogin<P extends Protocol, T>(
  env: LoginEnv,
  m: LoginRow<P>,
  p: P,
  fn: (cfg: SmtpConfig & ImapConfig) => Promise<T>,
): Promise<T> {
  let cfg = await loginFor(env, m, p);
  if (m.authType !== "OAUTH") return fn(cfg);
  for (let tries = 1; ; tries++) {
    try {
      return await fn(cfg);
    } catch (e) {
      if (!isAuthRefusal(e) || tries >= OAUTH_LOGIN_TRIES) throw e;
      cfg = await loginFor(env, m, p, cfg.accessToken);
    }
  }
}

/** Plain-English remedies for each kind of mailbox issue, specific to the provider where it helps. */
export function fixFor(
  kind: "LOGIN_FAILING" | "READ_FAILING" | "AUTO_PAUSED",
  provider: string,
  email: string,
  authType = "PASSWORD",
  /** An OAuth mailbox connected in bulk: its tokens come from a service account or the tenant's admin consent. */
  appGrant?: "SERVICE_ACCOUNT" | "APP_ONLY",
): string {
  if (kind !== "AUTO_PAUSED" && appGrant) {
    return appGrant === "SERVICE_ACCOUNT"
      ? `Google refuses the workspace's service account for ${email}: check its domain-wide delegation (client id and the https://mail.google.com/ scope ` +
          "in the Admin console) and that the account exists, then run the Google bulk connect again for this address. Its history and warmup are kept."
      : `Microsoft refuses the app-only token for ${email}: check the tenant's admin consent, the IMAP.AccessAsApp and SMTP.SendAsApp permissions and ` +
          "the Exchange mailbox permission, then run the Microsoft bulk connect again for this address. Its history and warmup are kept.";
  }
  if (kind !== "AUTO_PAUSED" && authType === "OAUTH") {
    const name = provider === "MICROSOFT" ? "Microsoft" : "Google";
    return (
      `${name} no longer accepts the consent given for ${email} (it was revoked, the password was reset or the account was disabled). ` +
      `Reconnect this mailbox: Mailboxes → Connect ${name}, and sign in as ${email}. Its history and warmup are kept.`
    );
  }
  if (kind === "AUTO_PAUSED") {
    return (
      "Too many of its emails bounced, so it was paused to protect the domain. Verify or remove the bouncing leads, " +
      "then turn sending back on (PATCH the mailbox with sendingEnabled: true)."
    );
  }
  if (kind === "READ_FAILING") {
    return (
      `Replies to ${email} cannot be read. Check that IMAP access is enabled for the mailbox and that the IMAP username ` +
      "and password are right, then update them (PATCH imapUsername/imapPassword)."
    );
  }
  if (provider === "GOOGLE") {
    return (
      `Google refused the login for ${email}. Make sure 2-Step Verification is on, create a new app password at ` +
      "myaccount.google.com/apppasswords and reconnect the mailbox with it. Nothing sends from it until then."
    );
  }
  if (provider === "MICROSOFT") {
    return (
      `Microsoft refused the login for ${email}. Check that SMTP AUTH is enabled for this mailbox in the Microsoft 365 ` +
      "admin center and that the app password is current, then reconnect it. Nothing sends from it until then."
    );
  }
  return (
    `The mail server refused the login for ${email}. Check the SMTP username and password (or create a new app password) ` +
    "and update the mailbox. Nothing sends from it until then."
  );
}

/** One message over the mailbox's own SMTP login (password or XOAUTH2), as sendSmtp sends it. */
export function sendSmtpAs(env: LoginEnv, m: LoginRow<"smtp">, msg: OutgoingMessage): Promise<{ messageId: string; response: string }> {
  return withLogin(env, m, "smtp", (cfg) => sendSmtp(cfg, msg));
}
