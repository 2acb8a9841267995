import net from "node:net";
import type { Transporter } from "nodemailer";
import SMTPPool from "nodemailer/lib/smtp-pool";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import type Mail from "nodemailer/lib/mailer";
import { type SmtpConfig, smtpTransport } from "./smtp";

/**
 * How the send engine hands a message to a mail server: one small interface, so that another way of
 * sending (a provider's HTTP API) is one more implementation. Today's is SMTP over a pooled nodemailer
 * transport, logged in with the mailbox's password or XOAUTH2 token.
 */

/** A message as the engine composes it (addresses, subject, bodies, headers, attachments). */
export type OutgoingMessage = Mail.Options;
/** What the server answered: the Message-ID used, accepted and rejected recipients, the reply line. */
export type SendResult = SMTPTransport.SentMessageInfo;

export interface MailSender {
  send(message: OutgoingMessage): Promise<SendResult>;
  /** Ends the sender's connections; a send after close is refused. */
  close(): void;
}

type SocketOptions = { host?: string; port?: number; connectionTimeout?: number };

/**
 * nodemailer's getSocket hook: each connection it opens has TCP_NODELAY. nodemailer leaves Nagle's
 * algorithm on, and on a pooled connection the small write that ends a message then waits for the
 * server's delayed ACK (~40 ms on Linux) before it goes out. The hook opens the TCP connection itself
 * and hands it over connected; nodemailer does the rest as usual (greeting, TLS for port 465 or
 * STARTTLS, login). A refused or timed-out connection is reported with its code (ECONNREFUSED,
 * ETIMEDOUT …), as nodemailer's own would be.
 */
function noDelaySocket(options: SocketOptions, callback: (err: Error | null, socketOptions: object | null) => void): void {
  const socket = net.connect({ host: options.host ?? "localhost", port: options.port ?? 587 });
  let done = false;
  const finish = (err: Error | null) => {
    if (done) return;
    done = true;
    socket.setTimeout(0);
    socket.off("error", finish);
    if (err) {
      socket.destroy();
      return callback(err, null);
    }
    socket.setNoDelay(true);
    callback(null, { connection: socket });
  };
  socket.setTimeout(options.connectionTimeout ?? 15_000, () =>
    finish(Object.assign(new Error("Connection timeout"), { code: "ETIMEDOUT" })),
  );
  socket.once("error", finish);
  socket.once("connect", () => finish(null));
}

/** The transport with TCP_NODELAY on every connection it opens (pooled or not). */
export function withNoDelay<T extends Transporter>(t: T): T {
  if (t.transporter instanceof SMTPPool || t.transporter instanceof SMTPTransport) t.transporter.getSocket = noDelaySocket;
  return t;
}

/** The SMTP sender; its nodemailer transport is visible to benchmarks that time or replace its sendMail. */
export interface SmtpSender extends MailSender {
  readonly transport: Transporter<SendResult>;
}

/** A sender over a pooled SMTP connection (TCP_NODELAY on each), logged in as `cfg` says. */
export function smtpSender(cfg: SmtpConfig): SmtpSender {
  const transport = withNoDelay(smtpTransport(cfg, { pool: true })) as Transporter<SendResult>;
  return { transport, send: (message) => transport.sendMail(message), close: () => transport.close() };
}
