import { fetchSince, type ImapClient, junkFolder, listFolders, sentFolder } from "../../mail/imap-ops";

/** Received files kept: 25 MB per message at most; a larger message is skipped before download. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
/** One UID FETCH and one transaction take at most this many messages / bytes (a first sync of a full INBOX comes in batches). */
export const BATCH_MESSAGES = 100;
export const BATCH_BYTES = 50 * 1024 * 1024;

export type FolderKind = "inbound" | "sent";
export type Folder = { path: string; kind: FolderKind };

/** The folder list of a kept connection, read once (LIST is not repeated every cycle). */
const folderCache = new WeakMap<object, Folder[]>();

/** INBOX and the spam folder hold what others sent; the Sent folder holds answers written in a mail client. */
export async function foldersOf(client: ImapClient): Promise<Folder[]> {
  const cached = folderCache.get(client);
  if (cached) return cached;
  const out: Folder[] = [{ path: "INBOX", kind: "inbound" }];
  const list = await listFolders(client);
  // The same folder rules as placement and warmup (lib/mail/imap-ops.ts): SPECIAL-USE first, else the usual names.
  const junk = junkFolder(list);
  const sent = sentFolder(list);
  if (junk) out.push({ path: junk, kind: "inbound" });
  if (sent) out.push({ path: sent, kind: "sent" });
  folderCache.set(client, out);
  return out;
}

/** One new message of a folder, as listed before download. */
export interface Listed {
  uid: number;
  size: number;
  /** Its Message-ID header (cleaned), when it has one. */
  messageId: string | null;
  /** The service's own mail (warmup, placement probe): known by its Message-ID, never downloaded as mail. */
  warmup: boolean;
}

/**
 * Opens a folder (read-only) and lists its messages after `lastUid` of the same UIDVALIDITY (all of
 * them when it changed): lib/mail's fetch since a UID, each marked not yet known as warmup.
 */
export async function listNew(
  client: ImapClient,
  path: string,
  state: { uidValidity: string; lastUid: number } | undefined,
): Promise<{ uidValidity: string; lastUid: number; listed: Listed[] }> {
  const { uidValidity, lastUid, messages } = await fetchSince(client, path, state);
  return { uidValidity, lastUid, listed: messages.map((m) => ({ ...m, warmup: false })) };
}

/** Whether a listed message is downloaded: warmup traffic and messages over 25 MB are passed over. */
export const wanted = (x: Listed) => !x.warmup && x.size <= MAX_MESSAGE_BYTES;

/** The listed messages in batches of up to BATCH_MESSAGES wanted messages and BATCH_BYTES (at least one message each). */
export function batches(listed: Listed[]): Listed[][] {
  const out: Listed[][] = [];
  for (let start = 0; start < listed.length; ) {
    let end = start;
    let count = 0;
    let bytes = 0;
    for (; end < listed.length; end++) {
      const x = listed[end];
      if (!wanted(x)) continue; // passed over, never downloaded
      if (count > 0 && (count >= BATCH_MESSAGES || bytes + x.size > BATCH_BYTES)) break;
      count++;
      bytes += x.size;
    }
    out.push(listed.slice(start, end));
    start = end;
  }
  return out;
}
