import { type ImapClient, junkFolder, sentFolder } from "../../mail/imap-ops";

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
  const list = await client.list().catch(() => []);
  // The same folder rules as placement and warmup (lib/mail/imap-ops.ts): SPECIAL-USE first, else the usual names.
  const junk = junkFolder(list);
  const sent = sentFolder(list);
  if (junk) out.push({ path: junk, kind: "inbound" });
  if (sent) out.push({ path: sent, kind: "sent" });
  folderCache.set(client, out);
  return out;
}

/**
 * Whether a folder synced before has nothing new, by STATUS (one round trip, the folder is not
 * opened). Not for the folder this connection has selected: STATUS there may not be current (RFC 3501
 * 6.3.10), so it is opened.
 */
export async function unchangedSince(client: ImapClient, path: string, state: { uidValidity: string; lastUid: number }): Promise<boolean> {
  const selected = client.mailbox && typeof client.mailbox === "object" ? client.mailbox.path : undefined;
  if (selected === path) return false;
  const st = await client.status(path, { uidNext: true, uidValidity: true }).catch(() => undefined);
  return !!st && String(st.uidValidity) === state.uidValidity && st.uidNext !== undefined && st.uidNext - 1 <= state.lastUid;
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

/** `<id@host>` from a fetched header block (`Message-ID: <…>`, possibly folded), or null. */
function messageIdOf(headers: Buffer | undefined): string | null {
  if (!headers) return null;
  const m = /^message-id:\s*(<[^>\r\n]+>)/im.exec(headers.toString("latin1").replace(/\r?\n[ \t]+/g, " "));
  return m ? m[1].trim() : null;
}

/**
 * Opens a folder (read-only) and lists its messages after `lastUid` of the same UIDVALIDITY (all of
 * them when it changed): one UID FETCH of sizes and Message-IDs, none when SELECT's UIDNEXT
 * says nothing is new.
 */
export async function listNew(
  client: ImapClient,
  path: string,
  state: { uidValidity: string; lastUid: number } | undefined,
): Promise<{ uidValidity: string; lastUid: number; listed: Listed[] }> {
  const box = await client.mailboxOpen(path, { readOnly: true });
  const uidValidity = String(box.uidValidity);
  const lastUid = state && state.uidValidity === uidValidity ? state.lastUid : 0;
  const listed: Listed[] = [];
  if (box.exists > 0 && !(typeof box.uidNext === "number" && box.uidNext - 1 <= lastUid)) {
    for await (const msg of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true, headers: ["message-id"] }, { uid: true })) {
      if (msg.uid > lastUid) listed.push({ uid: msg.uid, size: msg.size ?? 0, messageId: messageIdOf(msg.headers), warmup: false });
    }
    listed.sort((a, b) => a.uid - b.uid);
  }
  return { uidValidity, lastUid, listed };
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

/** A UID set for UID FETCH: runs of consecutive UIDs as ranges ("3:7,9,12:13"). */
export function uidSet(uids: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < uids.length; ) {
    let j = i;
    while (j + 1 < uids.length && uids[j + 1] === uids[j] + 1) j++;
    parts.push(j > i ? `${uids[i]}:${uids[j]}` : String(uids[i]));
    i = j + 1;
  }
  return parts.join(",");
}

/** The sources of `uids` of the open folder, in one UID FETCH. */
export async function fetchSources(client: ImapClient, uids: number[]): Promise<Map<number, Buffer>> {
  const sources = new Map<number, Buffer>();
  if (!uids.length) return sources;
  const asked = new Set(uids);
  for await (const msg of client.fetch(uidSet(uids), { uid: true, source: true }, { uid: true }))
    if (msg.source && asked.has(msg.uid)) sources.set(msg.uid, msg.source);
  return sources;
}
