import { createHash } from "node:crypto";
import type { Transporter } from "nodemailer";
import { smtpTransport, type SmtpConfig } from "../mail/smtp";

/**
 * Pooled SMTP connections per mailbox, reused across sends (a fresh login per email is slow and looks
 * odd to providers). A changed password gives a new pool.
 */
const pools = new Map<string, { key: string; t: Transporter }>();

export function pooledTransport(mailboxId: string, cfg: SmtpConfig): Transporter {
  const key = createHash("sha1").update(JSON.stringify(cfg)).digest("hex");
  const cur = pools.get(mailboxId);
  if (cur && cur.key === key) return cur.t;
  cur?.t.close();
  const t = smtpTransport(cfg, { pool: true });
  pools.set(mailboxId, { key, t });
  return t;
}

export function dropTransport(mailboxId: string): void {
  pools.get(mailboxId)?.t.close();
  pools.delete(mailboxId);
}

export function closeAllTransports(): void {
  for (const { t } of pools.values()) t.close();
  pools.clear();
}
