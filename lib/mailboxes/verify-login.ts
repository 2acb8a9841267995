import { AppError, UpstreamError, ValidationError } from "../errors";
import { ImapError, verifyImapLogin, type ImapConfig } from "../mail/imap";
import { SmtpError, verifySmtpLogin, type SmtpConfig } from "../mail/smtp";

/**
 * Checks an SMTP login before anything is saved: a refusal is the user's to fix (400, with the
 * server's reason on `field`); an unreachable server is ours to report (502).
 */
export async function requireSmtpLogin(cfg: SmtpConfig, field: string): Promise<void> {
  try {
    await verifySmtpLogin(cfg);
  } catch (e) {
    throw smtpFailureToAppError(e, field);
  }
}

export function smtpFailureToAppError(e: unknown, field: string): AppError {
  if (e instanceof SmtpError) {
    if (e.kind === "unreachable") return new UpstreamError(e.message);
    const err = new ValidationError(`The SMTP server refused the login: ${e.message}`, {
      fieldErrors: { [field]: [e.message] },
      formErrors: [],
    });
    return new AppError(err.code, err.message, err.details, e.responseCode ? { smtpResponseCode: e.responseCode } : undefined);
  }
  throw e;
}

export async function requireImapLogin(cfg: ImapConfig, field: string): Promise<void> {
  try {
    await verifyImapLogin(cfg);
  } catch (e) {
    if (e instanceof ImapError) {
      if (e.kind === "unreachable") throw new UpstreamError(e.message);
      throw new ValidationError(`The IMAP server refused the login: ${e.message}`, {
        fieldErrors: { [field]: [e.message] },
        formErrors: [],
      });
    }
    throw e;
  }
}
