import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { appUrl, systemMail } from "../env";

/**
 * The instance's own mail: invitations, password resets and email-address confirmations. It is not
 * a workspace's mailbox; the operator names one SMTP server for the whole instance:
 *
 * - `SYSTEM_SMTP_URL`: `smtp://user:pass@host:port` (plain, upgraded with STARTTLS when the server
 *   offers it; port 587 by default) or `smtps://user:pass@host:port` (TLS from the first byte; 465 by
 *   default). User and password are percent-encoded like any URL's. Unset: no system mail, and the
 *   dashboard shows the links to copy instead.
 * - `SYSTEM_MAIL_FROM`: the From header, default `Outreach <no-reply@<APP_URL's host>>`.
 */

export interface SystemMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

interface SmtpUrl {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
}

/** The server of `SYSTEM_SMTP_URL`, or undefined when unset or blank. Throws on a URL of another kind. */
export function parseSystemSmtpUrl(raw: string | undefined): SmtpUrl | undefined {
  if (!raw?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error("SYSTEM_SMTP_URL is not a URL; write smtp://user:pass@host:port or smtps://user:pass@host:port");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error(`SYSTEM_SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  }
  if (!url.hostname) throw new Error("SYSTEM_SMTP_URL names no host");
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    pass: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

/** Whether the instance can send its own mail (SYSTEM_SMTP_URL is set). */
export function systemMailerConfigured(): boolean {
  return Boolean(systemMail.url);
}

/** The From header of system mail. */
export function systemMailFrom(): string {
  const configured = systemMail.from;
  if (configured) return configured;
  let host = "localhost";
  try {
    host = new URL(appUrl()).hostname || "localhost";
  } catch {
    // An APP_URL that is no URL: the default host stays.
  }
  return `Outreach <no-reply@${host}>`;
}

/** Sends one message through SYSTEM_SMTP_URL. Throws when it is unset or the server refuses. */
export async function sendSystemMail(mail: SystemMail): Promise<{ messageId: string }> {
  const server = parseSystemSmtpUrl(systemMail.url);
  if (!server) throw new Error("No system mailer: SYSTEM_SMTP_URL is not set");
  const options: SMTPTransport.Options = {
    host: server.host,
    port: server.port,
    secure: server.secure,
    auth: server.user ? { user: server.user, pass: server.pass ?? "" } : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  };
  const transport = nodemailer.createTransport(options);
  try {
    const info = await transport.sendMail({ from: systemMailFrom(), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return { messageId: info.messageId };
  } finally {
    transport.close();
  }
}
