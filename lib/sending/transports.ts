import { createHash } from "node:crypto";
import net from "node:net";
import type { Transporter } from "nodemailer";
import SMTPPool from "nodemailer/lib/smtp-pool";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import type Mail from "nodemailer/lib/mailer";
import { outreachSecret } from "../env";
import { type SmtpConfig, smtpTransport } from "../mail/smtp";
import { type LoginEnv, type LoginRow, withLogin } from "../mailboxes/credentials";

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

/**
 * Pooled SMTP connections per mailbox, reused across sends (a fresh login per email is slow and looks
 * odd to providers), with TCP_NODELAY. A changed password gives a new pool. `saved` is the password
 * mailbox's login as stored when the pool was last used (see savedLogin).
 */
const pools = new Map<string, { key: string; t: Transporter; saved?: string }>();

export function pooledTransport(mailboxId: string, cfg: SmtpConfig): Transporter {
  const key = createHash("sha1").update(JSON.stringify(cfg)).digest("hex");
  const cur = pools.get(mailboxId);
  if (cur && cur.key === key) return cur.t;
  cur?.t.close();
  const t = withNoDelay(smtpTransport(cfg, { pool: true }));
  pools.set(mailboxId, { key, t });
  return t;
}

/**
 * A password mailbox's SMTP login as stored (the sealed password, and the secret that opens it): while
 * it is the one its pool was made from, the pool is reused without decrypting and hashing the login
 * again on every send. OAuth mailboxes always go through withLogin (their token may need a refresh).
 */
function savedLogin(m: LoginRow<"smtp">): string | undefined {
  if (m.authType === "OAUTH") return undefined;
  return `${m.smtpHost}\u0000${m.smtpPort}\u0000${m.smtpSecurity}\u0000${m.smtpUsername}\u0000${m.smtpPasswordEnc}\u0000${outreachSecret()}`;
}

/**
 * One message over the mailbox's pooled connection, logged in as the mailbox: its password, or XOAUTH2
 * with a current token (a refreshed token changes the pool's key, so the next send opens a new pool).
 */
export async function sendPooledAs(env: LoginEnv, m: LoginRow<"smtp">, mail: Mail.Options) {
  const saved = savedLogin(m);
  const cur = saved === undefined ? undefined : pools.get(m.id);
  if (cur && cur.saved === saved) return cur.t.sendMail(mail);
  return withLogin(env, m, "smtp", (cfg) => {
    const t = pooledTransport(m.id, cfg);
    const entry = pools.get(m.id);
    if (entry) entry.saved = saved;
    return t.sendMail(mail);
  });
}

export function dropTransport(mailboxId: string): void {
  pools.get(mailboxId)?.t.close();
  pools.delete(mailboxId);
}

export function closeAllTransports(): void {
  for (const { t } of pools.values()) t.close();
  pools.clear();
}
