import type { ImapConfig } from "../mail/imap";
import { findByMessageId, findJunkFolder, hasGmailExtensions, type ImapClient, inFolder, messageArrival, withImap } from "../mail/imap-ops";
import { type Tab, tabOf } from "./rules";

/** Where a seed's server filed a probe. */
export interface Found {
  placement: "INBOX" | "SPAM";
  folder: string;
  /** The inbox tab, on servers with Gmail's labels (X-GM-EXT-1) only. */
  tab: Tab | null;
  receivedAt: Date | null;
}

/** The probes found in one folder, by Message-ID header (one SEARCH each, read-only). */
async function searchFolder(
  client: ImapClient,
  path: string,
  ids: string[],
  gmail: boolean,
): Promise<Map<string, Omit<Found, "placement">>> {
  const out = new Map<string, Omit<Found, "placement">>();
  await inFolder(
    client,
    path,
    async () => {
      for (const { id, uid } of await findByMessageId(client, ids)) {
        const msg = await messageArrival(client, uid, { labels: gmail });
        out.set(id, {
          folder: path,
          tab: gmail && path === "INBOX" ? tabOf(msg?.labels ?? []) : null,
          receivedAt: msg?.receivedAt ?? null,
        });
      }
    },
    { readOnly: true },
  );
  return out;
}

/**
 * Looks for probes (by Message-ID) in one seed's INBOX and spam folder over a short-lived connection
 * of its own (the inbox sync's pool is left alone). Throws when the seed cannot be reached or logged
 * in to; the caller leaves those probes PENDING for the next read.
 */
export async function findProbes(cfg: ImapConfig, messageIds: string[]): Promise<Map<string, Found>> {
  const found = new Map<string, Found>();
  if (!messageIds.length) return found;
  return withImap(cfg, async (client) => {
    const gmail = hasGmailExtensions(client);
    for (const [id, f] of await searchFolder(client, "INBOX", messageIds, gmail)) found.set(id, { placement: "INBOX", ...f });
    const junk = await findJunkFolder(client);
    const rest = messageIds.filter((id) => !found.has(id));
    if (junk && rest.length) {
      for (const [id, f] of await searchFolder(client, junk, rest, false)) found.set(id, { placement: "SPAM", ...f });
    }
    return found;
  });
}
