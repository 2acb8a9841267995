import type { FetchMessageObject, ImapFlow, ListResponse } from "imapflow";
import { type ImapConfig, imapClient } from "./imap";

/**
 * The IMAP operations the rest of the code uses, as small functions over one connected client. Only
 * lib/mail talks to imapflow; inbox, warmup and placement call these and use the types below.
 */

/** A connected IMAP client. */
export type ImapClient = ImapFlow;
/** One folder of a LIST answer. */
export type ImapFolder = ListResponse;
/** One message of a FETCH answer. */
export type ImapMessage = FetchMessageObject;

/**
 * Connects and logs in (a password, or an OAuth token by XOAUTH2); errors come through the failing
 * command, not as events. `autoIdle: false` keeps a polled connection out of IDLE between polls.
 */
export async function connectImap(cfg: ImapConfig, opts: { autoIdle?: boolean } = {}): Promise<ImapClient> {
  const client = imapClient(cfg);
  if (opts.autoIdle === false) client.options.disableAutoIdle = true;
  client.on("error", () => {}); // reported through the failing command
  await client.connect();
  return client;
}

/** Closes the connection's socket at once, without LOGOUT (a kept connection dropped or idle too long). */
export function closeImap(client: ImapClient): void {
  client.close();
}

/** Logs out, and closes the socket when the server does not answer the LOGOUT. */
export async function logoutImap(client: ImapClient): Promise<void> {
  await client.logout().catch(() => client.close());
}

/** Connects, runs `fn`, and logs out whatever `fn` did; `fn`'s result or error is passed on. */
export async function withImap<T>(cfg: ImapConfig, fn: (client: ImapClient) => Promise<T>): Promise<T> {
  const client = await connectImap(cfg);
  try {
    return await fn(client);
  } finally {
    await logoutImap(client);
  }
}

/** Spam folder names for servers without SPECIAL-USE: the last path segment, e.g. Junk, Spam, [Gmail]/Spam, INBOX.Junk E-mail. */
const JUNK_NAME = /^(junk|spam|junk e-?mail|bulk( mail)?)$/i;

/** The server's spam folder: the one marked \Junk, else one named like it; undefined when it has none. */
export function junkFolder(folders: Pick<ImapFolder, "path" | "specialUse" | "delimiter">[]): string | undefined {
  const marked = folders.find((f) => f.specialUse === "\\Junk");
  if (marked) return marked.path;
  return folders.find((f) => JUNK_NAME.test(lastSegment(f)))?.path;
}

/** Sent folder names for servers without SPECIAL-USE: the last path segment, e.g. Sent, Sent Items, INBOX.Sent Messages. */
const SENT_NAME = /^sent( (items|mail|messages))?$/i;

const lastSegment = (f: Pick<ImapFolder, "path" | "delimiter">) => (f.delimiter ? (f.path.split(f.delimiter).pop() ?? f.path) : f.path);

/** The server's sent folder: the one marked \Sent, else one named like it; undefined when it has none. */
export function sentFolder(folders: Pick<ImapFolder, "path" | "specialUse" | "delimiter">[]): string | undefined {
  return (folders.find((f) => f.specialUse === "\\Sent") ?? folders.find((f) => SENT_NAME.test(lastSegment(f))))?.path;
}

/** The spam folder of a connected client (one LIST). */
export async function findJunkFolder(client: ImapClient): Promise<string | undefined> {
  return junkFolder(await client.list());
}

/** The UIDs of the given Message-IDs in the open folder (one SEARCH each); ids not there are left out. */
export async function findByMessageId(client: ImapClient, ids: string[]): Promise<{ id: string; uid: number }[]> {
  const hits: { id: string; uid: number }[] = [];
  for (const id of ids) {
    const uid = ((await client.search({ header: { "message-id": id } }, { uid: true })) || [])[0];
    if (uid) hits.push({ id, uid });
  }
  return hits;
}

/** Opens `path` (read-only when asked) for the length of `fn`, then releases it. */
export async function inFolder<T>(client: ImapClient, path: string, fn: () => Promise<T>, opts: { readOnly?: boolean } = {}): Promise<T> {
  const lock = await client.getMailboxLock(path, opts.readOnly ? { readOnly: true } : undefined);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/** Marks the UIDs of the open folder seen and flagged. */
export async function flagSeen(client: ImapClient, uids: number[]): Promise<void> {
  if (uids.length) await client.messageFlagsAdd(uids.join(","), ["\\Seen", "\\Flagged"], { uid: true });
}

/** Moves the UIDs of the open folder to INBOX. */
export async function moveToInbox(client: ImapClient, uids: number[]): Promise<void> {
  if (uids.length) await client.messageMove(uids.join(","), "INBOX", { uid: true });
}

/** Appends a raw message to `path` with the given flags. */
export async function appendMessage(client: ImapClient, path: string, raw: Buffer | string, flags: string[] = []): Promise<void> {
  await client.append(path, raw, flags);
}

/** The folders of a connected client (one LIST); none when the server refuses it. */
export async function listFolders(client: ImapClient): Promise<ImapFolder[]> {
  return client.list().catch(() => []);
}

/** Opens `path` and keeps it selected (read-write unless asked), for the commands that follow on the open folder. */
export async function openFolder(client: ImapClient, path: string, opts: { readOnly?: boolean } = {}): Promise<void> {
  await client.mailboxOpen(path, opts.readOnly ? { readOnly: true } : undefined);
}

/**
 * Whether a folder read before up to `lastUid` (of `uidValidity`) has nothing new, by STATUS (one round
 * trip, the folder is not opened). False for the folder this connection has selected: STATUS there may
 * not be current (RFC 3501 6.3.10), so the caller opens it.
 */
export async function unchangedSince(client: ImapClient, path: string, state: { uidValidity: string; lastUid: number }): Promise<boolean> {
  const selected = client.mailbox && typeof client.mailbox === "object" ? client.mailbox.path : undefined;
  if (selected === path) return false;
  const st = await client.status(path, { uidNext: true, uidValidity: true }).catch(() => undefined);
  return !!st && String(st.uidValidity) === state.uidValidity && st.uidNext !== undefined && st.uidNext - 1 <= state.lastUid;
}

/** One message after a UID, as listed before download: its size and Message-ID header (cleaned), when it has one. */
export interface ListedMessage {
  uid: number;
  size: number;
  messageId: string | null;
}

/** `<id@host>` from a fetched header block (`Message-ID: <…>`, possibly folded), or null. */
function messageIdOf(headers: Buffer | undefined): string | null {
  if (!headers) return null;
  const m = /^message-id:\s*(<[^>\r\n]+>)/im.exec(headers.toString("latin1").replace(/\r?\n[ \t]+/g, " "));
  return m ? m[1].trim() : null;
}

/**
 * Fetch since a UID: opens `folder` read-only and lists its messages after `since.lastUid` of the same
 * UIDVALIDITY (all of them when it changed), in UID order — one UID FETCH of sizes and Message-IDs,
 * none when SELECT's UIDNEXT says nothing is new. `limit` keeps the first that many. Returns the
 * folder's UIDVALIDITY and the UID the list starts after.
 */
export async function fetchSince(
  client: ImapClient,
  folder: string,
  since: { uidValidity: string; lastUid: number } | undefined,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ uidValidity: string; lastUid: number; messages: ListedMessage[] }> {
  const box = await client.mailboxOpen(folder, { readOnly: true });
  const uidValidity = String(box.uidValidity);
  const lastUid = since && since.uidValidity === uidValidity ? since.lastUid : 0;
  const messages: ListedMessage[] = [];
  if (box.exists > 0 && !(typeof box.uidNext === "number" && box.uidNext - 1 <= lastUid)) {
    for await (const msg of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true, headers: ["message-id"] }, { uid: true })) {
      if (msg.uid > lastUid) messages.push({ uid: msg.uid, size: msg.size ?? 0, messageId: messageIdOf(msg.headers) });
    }
    messages.sort((a, b) => a.uid - b.uid);
  }
  return { uidValidity, lastUid, messages: messages.slice(0, limit) };
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

/** The arrival time and (with `labels`, on servers with Gmail's X-GM-EXT-1) the labels of one UID of the open folder. */
export async function messageArrival(
  client: ImapClient,
  uid: number,
  opts: { labels?: boolean } = {},
): Promise<{ receivedAt: Date | null; labels: string[] } | undefined> {
  const msg = await client.fetchOne(String(uid), { internalDate: true, labels: !!opts.labels }, { uid: true });
  if (!msg) return undefined;
  return { receivedAt: msg.internalDate ? new Date(msg.internalDate) : null, labels: [...(msg.labels ?? [])] };
}

/** Whether the server has Gmail's extensions (X-GM-EXT-1: labels, thread ids). */
export const hasGmailExtensions = (client: ImapClient): boolean => client.capabilities.has("X-GM-EXT-1");
