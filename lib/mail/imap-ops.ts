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
