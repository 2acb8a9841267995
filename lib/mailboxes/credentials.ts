import { decryptSecret } from "../crypto/secretbox";
import type { ImapConfig } from "../mail/imap";
import type { SmtpConfig } from "../mail/smtp";
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
export const imapConfigOf = (m: Pick<MailboxRow, LoginColumns<"imap">>): ImapConfig => loginOf(m, "imap");

/** Plain-English remedies for the issue kinds of spec 2.8, specific to the provider where it helps. */
export function fixFor(kind: "LOGIN_FAILING" | "READ_FAILING" | "AUTO_PAUSED", provider: string, email: string): string {
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
