import { createHash } from "node:crypto";
import { outreachSecret } from "../env";
import { type OutgoingMessage, type SmtpSender, smtpSender } from "../mail/sender";
import type { SmtpConfig } from "../mail/smtp";
import { type LoginEnv, type LoginRow, withLogin } from "../mailboxes/credentials";

/**
 * Pooled senders per mailbox (SMTP connections today), reused across sends (a fresh login per email is slow and looks
 * odd to providers), with TCP_NODELAY. A changed password gives a new pool. `saved` is the password
 * mailbox's login as stored when the pool was last used (see savedLogin).
 */
const pools = new Map<string, { key: string; t: SmtpSender; saved?: string }>();

function pooledSender(mailboxId: string, cfg: SmtpConfig): SmtpSender {
  const key = createHash("sha1").update(JSON.stringify(cfg)).digest("hex");
  const cur = pools.get(mailboxId);
  if (cur && cur.key === key) return cur.t;
  cur?.t.close();
  const t = smtpSender(cfg);
  pools.set(mailboxId, { key, t });
  return t;
}

/** The pool's nodemailer transport, for benchmarks that time or replace its sendMail (the engine sends through the same pool). */
export function pooledTransport(mailboxId: string, cfg: SmtpConfig): SmtpSender["transport"] {
  return pooledSender(mailboxId, cfg).transport;
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
export async function sendPooledAs(env: LoginEnv, m: LoginRow<"smtp">, mail: OutgoingMessage) {
  const saved = savedLogin(m);
  const cur = saved === undefined ? undefined : pools.get(m.id);
  if (cur && cur.saved === saved) return cur.t.send(mail);
  return withLogin(env, m, "smtp", (cfg) => {
    const t = pooledSender(m.id, cfg);
    const entry = pools.get(m.id);
    if (entry) entry.saved = saved;
    return t.send(mail);
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
