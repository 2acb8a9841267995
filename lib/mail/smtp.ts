import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { ServerLogin } from "./providers";
import { mailTimeouts } from "../env";

/** An SMTP server's login. */
export type SmtpConfig = ServerLogin;

export type SmtpFailureKind = "auth" | "unreachable" | "rejected";

/** A failed SMTP exchange, with the server's own words when it said anything. */
export class SmtpError extends Error {
  constructor(
    readonly kind: SmtpFailureKind,
    message: string,
    readonly responseCode?: number,
  ) {
    super(message);
  }
}

const NETWORK_CODES = new Set([
  "ECONNECTION",
  "ESOCKET",
  "ETIMEDOUT",
  "EDNS",
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "ETLS",
  "EPROTOCOL",
]);

export function classifySmtpError(e: unknown): SmtpError {
  if (e instanceof SmtpError) return e;
  const err = e as { code?: string; responseCode?: number; response?: string; message?: string };
  const text = (err.response ?? err.message ?? "SMTP error").trim();
  if (err.code === "EAUTH" || err.responseCode === 535 || err.responseCode === 534) return new SmtpError("auth", text, err.responseCode);
  if (err.responseCode && err.responseCode >= 400) return new SmtpError("rejected", text, err.responseCode);
  if (!err.code || NETWORK_CODES.has(err.code)) return new SmtpError("unreachable", `Could not reach the SMTP server: ${text}`);
  return new SmtpError("rejected", text, err.responseCode);
}

export function smtpTransport(cfg: SmtpConfig, opts: { pool?: boolean } = {}) {
  const options: SMTPTransport.Options = {
    host: cfg.host,
    port: cfg.port,
    secure: cfg.security === "SSL",
    requireTLS: cfg.security === "STARTTLS",
    ignoreTLS: cfg.security === "NONE",
    auth: cfg.accessToken
      ? { type: "OAuth2", user: cfg.username, accessToken: cfg.accessToken }
      : { user: cfg.username, pass: cfg.password },
    connectionTimeout: mailTimeouts.smtpConnectMs,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  };
  return nodemailer.createTransport(opts.pool ? ({ ...options, pool: true } as SMTPTransport.Options) : options);
}

/** Logs in and out. Throws SmtpError: `auth` when the server refused the login. */
export async function verifySmtpLogin(cfg: SmtpConfig): Promise<void> {
  const t = smtpTransport(cfg);
  try {
    await t.verify();
  } catch (e) {
    throw classifySmtpError(e);
  } finally {
    t.close();
  }
}

export interface OutgoingMessage {
  from: { name?: string | null; address: string };
  to: string;
  subject: string;
  text: string;
  html?: string;
  messageId?: string;
  headers?: Record<string, string>;
  inReplyTo?: string;
  references?: string[];
  attachments?: { filename: string; contentType: string; content: Buffer; cid?: string }[];
}

export async function sendSmtp(cfg: SmtpConfig, msg: OutgoingMessage): Promise<{ messageId: string; response: string }> {
  const t = smtpTransport(cfg);
  try {
    const info = await t.sendMail({
      from: msg.from.name ? { name: msg.from.name, address: msg.from.address } : msg.from.address,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
      messageId: msg.messageId,
      headers: msg.headers,
      inReplyTo: msg.inReplyTo,
      references: msg.references,
      attachments: msg.attachments,
    });
    if (info.rejected.length > 0) throw new SmtpError("rejected", `Recipient refused: ${String(info.response)}`);
    return { messageId: info.messageId, response: String(info.response) };
  } catch (e) {
    throw classifySmtpError(e);
  } finally {
    t.close();
  }
}
