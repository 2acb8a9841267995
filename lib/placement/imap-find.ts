import type { ImapFlow, ListResponse } from "imapflow";
import { type ImapConfig, imapClient } from "../mail/imap";
import { type Tab, tabOf } from "./rules";

/** Where a seed's server filed a probe. */
export interface Found {
  placement: "INBOX" | "SPAM";
  folder: string;
  /** The inbox tab, on servers with Gmail's labels (X-GM-EXT-1) only. */
  tab: Tab | null;
  receivedAt: Date | null;
}

/** Spam folder names for servers without SPECIAL-USE: the last path segment, e.g. Junk, Spam, [Gmail]/Spam, INBOX.Junk E-mail. */
const JUNK_NAME = /^(junk|spam|junk e-?mail|bulk( mail)?)$/i;

/** The server's spam folder: the one marked \Junk, else one named like it; undefined when it has none. */
export function junkFolder(folders: Pick<ListResponse, "path" | "specialUse" | "delimiter">[]): string | undefined {
  const marked = folders.find((f) => f.specialUse === "\\Junk");
  if (marked) return marked.path;
  return folders.find((f) => JUNK_NAME.test(f.delimiter ? (f.path.split(f.delimiter).pop() ?? f.path) : f.path))?.path;
}

/** The probes found in one folder, by Message-ID header (one SEARCH each, read-only). */
async function searchFolder(client: ImapFlow, path: string, ids: string[], gmail: boolean): Promise<Map<string, Omit<Found, "placement">>> {
  const out = new Map<string, Omit<Found, "placement">>();
  const lock = await client.getMailboxLock(path, { readOnly: true });
  try {
    for (const id of ids) {
      const uid = ((await client.search({ header: { "message-id": id } }, { uid: true })) || [])[0];
      if (!uid) continue;
      const msg = await client.fetchOne(String(uid), { internalDate: true, labels: gmail }, { uid: true });
      const at = msg ? msg.internalDate : undefined;
      out.set(id, {
        folder: path,
        tab: gmail && path === "INBOX" ? tabOf(msg ? (msg.labels ?? []) : []) : null,
        receivedAt: at ? new Date(at) : null,
      });
    }
  } finally {
    lock.release();
  }
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
  const client = imapClient(cfg);
  client.on("error", () => {}); // reported through the failing command
  await client.connect();
  try {
    const gmail = client.capabilities.has("X-GM-EXT-1");
    for (const [id, f] of await searchFolder(client, "INBOX", messageIds, gmail)) found.set(id, { placement: "INBOX", ...f });
    const junk = junkFolder(await client.list());
    const rest = messageIds.filter((id) => !found.has(id));
    if (junk && rest.length) {
      for (const [id, f] of await searchFolder(client, junk, rest, false)) found.set(id, { placement: "SPAM", ...f });
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return found;
}
