import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startDnsPeer, type Zone } from "./peers/dns";
import { startImapPeer } from "./peers/imap";
import { startSmtpPeer } from "./peers/smtp";

/**
 * Real SMTP, IMAP and DNS peers for mailbox tests, with MAIL_PROVIDERS_FILE mapping `domain` to them
 * and DNS_SERVERS pointing at the DNS peer.
 */
export async function startMailWorld(opts: {
  domain: string;
  users: Record<string, string>;
  rejectRecipients?: string[];
  zone?: Zone;
  extraProviders?: Record<string, unknown>;
  dataDelayMs?: number;
}) {
  const smtp = await startSmtpPeer({ users: opts.users, rejectRecipients: opts.rejectRecipients, dataDelayMs: opts.dataDelayMs });
  const imap = await startImapPeer({ users: opts.users });
  const dns = await startDnsPeer(opts.zone ?? {});
  const dir = mkdtempSync(path.join(tmpdir(), "providers-"));
  const file = path.join(dir, "providers.json");
  writeFileSync(
    file,
    JSON.stringify({
      [opts.domain]: {
        smtpHost: smtp.host,
        smtpPort: smtp.port,
        smtpSecurity: "NONE",
        imapHost: imap.host,
        imapPort: imap.port,
        imapSecurity: "NONE",
      },
      ...opts.extraProviders,
    }),
  );
  process.env.MAIL_PROVIDERS_FILE = file;
  process.env.DNS_SERVERS = dns.server;
  return {
    smtp,
    imap,
    dns,
    async close() {
      await smtp.close();
      await imap.close();
      dns.close();
      delete process.env.MAIL_PROVIDERS_FILE;
      delete process.env.DNS_SERVERS;
    },
  };
}
