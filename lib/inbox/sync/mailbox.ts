import { and, eq } from "drizzle-orm";
import { imapState, type mailboxes } from "../../../db/schema";
import { loadAiSettings } from "../../ai/settings";
import type { ImapConfig } from "../../mail/imap";
import { connectImap, fetchSources, type ImapClient, logoutImap, unchangedSince } from "../../mail/imap-ops";
import { withLogin } from "../../mailboxes/credentials";
import { type ImapConnections, noDelay } from "../connections";
import { parseDsn } from "../dsn";
import { serviceMailIds } from "../../warmup/known";
import { receiveWarmup } from "../../warmup/receive";
import { type AiSwitch, type Mailbox, parseSource, prepareReplies, saveFolderState } from "../ingest";
import { commitBatch, type Item, type SyncCtx, type Totals } from "./commit";
import { batches, type Folder, foldersOf, type Listed, listNew, wanted } from "./fetch";

type MailboxRow = typeof mailboxes.$inferSelect;
type ImapStateRow = typeof imapState.$inferSelect;

/** Parses a batch's sources and sorts them: bounce reports, Sent-folder answers, replies (classified before the transaction). */
async function itemsOf(
  ctx: SyncCtx,
  mb: Mailbox,
  folder: Folder,
  uidValidity: string,
  uids: number[],
  sources: Map<number, Buffer>,
  ai: AiSwitch,
): Promise<Item[]> {
  const items: Item[] = [];
  const received = [];
  for (const uid of uids) {
    const src = sources.get(uid);
    const parsed = src ? await parseSource(src) : new Error("the server sent no body");
    if (parsed instanceof Error) {
      ctx.log.warn(`[inbox-sync] ${mb.email} ${folder.path} UID ${uid}: not stored (${parsed.message})`, { mailboxId: mb.id });
      continue;
    }
    if (folder.kind === "sent") items.push({ uid, kind: "own", parsed });
    else {
      const dsn = parseDsn(parsed);
      if (dsn) items.push({ uid, kind: "dsn", dsn });
      else received.push({ parsed, folder: folder.path, uid, uidValidity });
    }
  }
  // Classified before the transaction (an AI provider may take seconds), in UID order with the rest.
  for (const p of await prepareReplies(ctx.db, mb, received, ai)) items.push({ uid: p.uid!, kind: "reply", reply: p });
  return items.sort((a, b) => a.uid - b.uid);
}

/**
 * A mailbox sync's batches to store, one after another, while the connection goes on (the next
 * folder's STATUS or SELECT overlaps parsing and storing the last batch). At most one batch waits:
 * a batch is downloaded once the one before is stored.
 */
class StoreQueue {
  private pending: Promise<void> = Promise.resolve();

  add(task: () => Promise<void>): void {
    this.pending = this.pending.then(task);
    this.pending.catch(() => {}); // seen by idle(); not an unhandled rejection meanwhile
  }

  /** Resolves when every batch added is stored; rejects with the first failure. */
  idle(): Promise<void> {
    return this.pending;
  }
}

/** Downloads a folder's new messages batch by batch; each is parsed and stored by the queue. */
async function syncFolder(
  ctx: SyncCtx,
  client: ImapClient,
  mb: Mailbox,
  folder: Folder,
  found: { uidValidity: string; listed: Listed[] },
  ai: AiSwitch,
  run: { totals: Totals; queue: StoreQueue },
): Promise<void> {
  for (const batch of batches(found.listed)) {
    const uids = batch.filter(wanted).map((x) => x.uid);
    await run.queue.idle();
    const sources = await fetchSources(client, uids);
    run.totals.fetched += sources.size;
    const at = { folder: folder.path, uidValidity: found.uidValidity, upTo: batch[batch.length - 1].uid };
    run.queue.add(async () => {
      const items = await itemsOf(ctx, mb, folder, found.uidValidity, uids, sources, ai);
      await commitBatch(ctx, mb, at, items, run.totals);
    });
  }
}

/**
 * The service's own mail among the listed messages (warmup emails and answers, placement probes), known
 * by Message-ID before anything is downloaded: never downloaded as mail. Warmup mail addressed to this
 * mailbox is handled as the warmup network's receiving side (seen, flagged, out of spam, answered);
 * a failure there is logged and leaves the sync of the rest alone.
 */
async function serviceMail(ctx: SyncCtx, client: ImapClient, mb: Mailbox, folder: Folder, listed: Listed[]): Promise<void> {
  const ids = listed.flatMap((x) => (x.messageId ? [x.messageId] : []));
  if (!ids.length) return;
  const ours = await serviceMailIds(ctx.db, ids);
  if (!ours.size) return;
  const found: { uid: number; messageId: string }[] = [];
  for (const x of listed)
    if (x.messageId && ours.has(x.messageId)) {
      x.warmup = true;
      found.push({ uid: x.uid, messageId: x.messageId });
    }
  try {
    await receiveWarmup(ctx.db, ctx.clock.now(), client, mb, folder, found);
  } catch (e) {
    ctx.log?.error("warmup receive failed", { mailboxId: mb.id, folder: folder.path, error: String(e) });
  }
}

/** A folder synced before with nothing new: not opened; INBOX still records the sync time. */
async function markSynced(ctx: SyncCtx, mb: Mailbox, folder: Folder): Promise<void> {
  if (folder.path !== "INBOX") return;
  await ctx.db
    .update(imapState)
    .set({ lastSyncAt: ctx.clock.now() })
    .where(and(eq(imapState.mailboxId, mb.id), eq(imapState.folder, "INBOX")))
    .prepare("inbox_synced_at")
    .execute();
}

type SyncOpts = {
  pool?: ImapConnections;
  /** The mailbox's imap_state rows, when the caller read them with others. */
  states?: ImapStateRow[];
  /** "inbox": INBOX only, and any folder never read yet (the worker's cadence for Junk and Sent); default every folder. */
  folders?: "all" | "inbox";
};

/**
 * Reads new messages of each folder, incrementally by UIDVALIDITY + UID: a changed UIDVALIDITY starts
 * the folder over (the unique Message-ID per mailbox keeps that from duplicating replies). Per folder:
 * STATUS when nothing may be new (fetch.ts), else one UID FETCH of sizes (and the warmup marker), then
 * one UID FETCH of every body wanted — messages larger than 25 MB and warmup traffic are skipped before
 * download — and one transaction that stores them all and moves imap_state on (batches of
 * BATCH_MESSAGES / BATCH_BYTES). Bounce reports become bounces, not replies. A message that cannot be
 * parsed, or that the database refuses, is passed over without losing the others.
 * Returns once the connection is done with: `done` settles when every batch is stored (the store of
 * the last batches overlaps whatever the caller does next with IMAP).
 */
export async function readMailbox(ctx: SyncCtx, m: MailboxRow, opts: SyncOpts = {}): Promise<{ done: Promise<Totals> }> {
  const { db, clock } = ctx;
  const { pool } = opts;
  const client = await withLogin(ctx, m, "imap", (cfg) => (pool ? pool.get(m.id, cfg) : connectOnce(cfg)));
  const totals: Totals = { fetched: 0, stored: 0, bounces: 0, sent: 0 };
  const mb = { id: m.id, workspaceId: m.workspaceId, email: m.email };
  // Read once per mailbox sync, and only when a reply is to be classified by the AI provider.
  let aiSetting: Promise<boolean> | undefined;
  const ai: AiSwitch = () => (aiSetting ??= loadAiSettings(db, m.workspaceId).then((s) => s.aiClassificationEnabled));
  const rows = opts.states ?? (await db.select().from(imapState).where(eq(imapState.mailboxId, m.id)).prepare("inbox_states").execute());
  const states = new Map(rows.map((st) => [st.folder, st]));
  const queue = new StoreQueue();
  try {
    for (const folder of await foldersOf(client)) {
      const state = states.get(folder.path);
      if (state && opts.folders === "inbox" && folder.path !== "INBOX") continue;
      if (state && (await unchangedSince(client, folder.path, state))) {
        queue.add(() => markSynced(ctx, mb, folder));
        continue;
      }
      const found = await listNew(client, folder.path, state);
      await serviceMail(ctx, client, mb, folder, found.listed);
      if (found.listed.length) await syncFolder(ctx, client, mb, folder, found, ai, { totals, queue });
      else {
        const at = { mailboxId: m.id, folder: folder.path, uidValidity: found.uidValidity, lastUid: found.lastUid };
        queue.add(async () => void (await saveFolderState(db, at, clock.now())));
      }
    }
  } catch (e) {
    await queue.idle().catch(() => {}); // nothing left half-stored behind the failure
    pool?.drop(m.id); // reconnect next time
    throw e;
  } finally {
    if (!pool) await logoutImap(client);
  }
  const done = queue.idle().then(
    () => totals,
    (e) => {
      pool?.drop(m.id);
      throw e;
    },
  );
  done.catch(() => {}); // the caller's to see
  return { done };
}

/** Syncs a mailbox: reads it (readMailbox) and waits until everything read is stored. */
export async function syncMailbox(ctx: SyncCtx, m: MailboxRow, opts: SyncOpts = {}): Promise<Totals> {
  return (await readMailbox(ctx, m, opts)).done;
}

/** A connection for one sync, without the sidecar's pool (logged out after). */
async function connectOnce(cfg: ImapConfig): Promise<ImapClient> {
  const client = await connectImap(cfg);
  noDelay(client);
  return client;
}
