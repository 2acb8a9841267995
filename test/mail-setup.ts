import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startDnsPeer, type Zone } from "./peers/dns";
import { startImapPeer } from "./peers/imap";
import { startSmtpPeer } from "./peers/smtp";

type Peer = { host: string; port: number };

/**
 * A MAIL_PROVIDERS_FILE (its path) that sends each of `domains` to the local SMTP and IMAP peers, without
 * TLS; `extra` adds other entries as they are.
 */
export function localProvidersFile(peers: { smtp: Peer; imap: Peer }, domains: string[], extra: Record<string, unknown> = {}): string {
  const local = {
    smtpHost: peers.smtp.host,
    smtpPort: peers.smtp.port,
    smtpSecurity: "NONE",
    imapHost: peers.imap.host,
    imapPort: peers.imap.port,
    imapSecurity: "NONE",
  };
  const file = path.join(mkdtempSync(path.join(tmpdir(), "providers-")), "providers.json");
  writeFileSync(file, JSON.stringify({ ...Object.fromEntries(domains.map((d) => [d, local])), ...extra }));
  return file;
}

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
  onDataStart?: () => void;
}) {
  const { users, rejectRecipients, dataDelayMs, onDataStart } = opts;
  const smtp = await startSmtpPeer({ users, rejectRecipients, dataDelayMs, onDataStart });
  const imap = await startImapPeer({ users: opts.users });
  const dns = await startDnsPeer(opts.zone ?? {});
  const file = localProvidersFile({ smtp, imap }, [opts.domain], opts.extraProviders);
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
