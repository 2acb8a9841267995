import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { runPrepared } from "../../db/prepared";
import { imapState, mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import type { JobDef } from "../jobs/registry";
import { imapClient } from "../mail/imap";
import { hasWarmupHeader, WARMUP_HEADER } from "../mail/warmup";
import { ImapBackoffError, sidecarConnections, type ImapConnections } from "./connections";
import { imapConfigOf } from "../mailboxes/credentials";
import { loadAiSettings } from "../ai/settings";
import { applyDsn, parseDsn, type DsnReport } from "./dsn";
import { ingestOwnMessages, isWarmup, planReplies, prepareReplies, writeReplies, type AiSwitch, type PreparedReply } from "./ingest";

/** Received files kept: 25 MB per message (spec 8); a larger message is skipped before download. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
/** One UID FETCH and one transaction take at most this many messages / bytes (a first sync of a full INBOX comes in batches). */
export const BATCH_MESSAGES = 100;
export const BATCH_BYTES = 50 * 1024 * 1024;
/** textAsHtml (a linkified copy of the text) is never used: not generating it halves the parse time. */
export const PARSE_OPTIONS = { skipTextToHtml: true, skipTextLinks: true } as const;

export function pollIntervalMs(): number {
  const s = Number(process.env.IMAP_POLL_INTERVAL_S ?? 60);
  return (Number.isFinite(s) && s > 0 ? s : 60) * 1000;
}

type Mailbox = typeof mailboxes.$inferSelect;
type ImapStateRow = typeof imapState.$inferSelect;
type Client = ReturnType<typeof imapClient>;

type FolderKind = "inbound" | "sent";

/** The folder list of a kept connection, read once (LIST is not repeated every cycle). */
const folderCache = new WeakMap<object, { path: string; kind: FolderKind }[]>();

/** INBOX and the spam folder hold what others sent; the Sent folder holds answers written in a mail client. */
async function foldersOf(client: Client): Promise<{ path: string; kind: FolderKind }[]> {
  const cached = folderCache.get(client);
  if (cached) return cached;
  const out: { path: string; kind: FolderKind }[] = [{ path: "INBOX", kind: "inbound" }];
  const list = await client.list().catch(() => []);
  const junk = list.find((f) => f.specialUse === "\\Junk") ?? list.find((f) => /^(junk|spam)$/i.test(f.name));
  const sent = list.find((f) => f.specialUse === "\\Sent") ?? list.find((f) => /^sent( (items|mail|messages))?$/i.test(f.name));
  if (junk) out.push({ path: junk.path, kind: "inbound" });
  if (sent) out.push({ path: sent.path, kind: "sent" });
  folderCache.set(client, out);
  return out;
}

/** A UID set for UID FETCH: runs of consecutive UIDs as ranges ("3:7,9,12:13"). */
function uidSet(uids: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < uids.length; ) {
    let j = i;
    while (j + 1 < uids.length && uids[j + 1] === uids[j] + 1) j++;
    parts.push(j > i ? `${uids[i]}:${uids[j]}` : String(uids[i]));
    i = j + 1;
  }
  return parts.join(",");
}

/** One new message of a folder, as listed before download. */
interface Listed {
  uid: number;
  size: number;
  warmup: boolean;
}

/** What one downloaded message of a batch is, decided before the transaction. */
type Item = { uid: number } & (
  | { kind: "reply"; reply: PreparedReply }
  | { kind: "dsn"; dsn: DsnReport }
  | { kind: "own"; parsed: ParsedMail }
);

/** Messages the database refuses for what they contain (SQLSTATE class 22 data exception, 54 program limit, e.g. an index row too large). */
function isDataError(e: unknown): boolean {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; x && depth < 5; x = x.cause as typeof x, depth++) {
    if (typeof x.code === "string" && /^(22|54)[0-9A-Z]{3}$/.test(x.code)) return true;
  }
  return false;
}

function saveState(db: DbOrTx, mailboxId: string, folder: string, uidValidity: string, lastUid: number, now: Date) {
  return db
    .insert(imapState)
    .values({ mailboxId, folder, uidValidity, lastUid, lastSyncAt: now })
    .onConflictDoUpdate({ target: [imapState.mailboxId, imapState.folder], set: { uidValidity, lastUid, lastSyncAt: now } })
    .prepare("inbox_save_state") // run every cycle: one round trip once the connection knows it (db/prepared.ts)
    .execute();
}

/**
 * Reads new messages of each folder, incrementally by UIDVALIDITY + UID: a changed UIDVALIDITY starts
 * the folder over (the unique Message-ID per mailbox keeps that from duplicating replies). Per folder:
 * one UID FETCH of sizes (and the warmup marker), then one UID FETCH of every body wanted — messages
 * larger than 25 MB and warmup traffic are skipped before download — and one transaction that stores
 * them all and moves imap_state on (batches of BATCH_MESSAGES / BATCH_BYTES). Bounce reports become
 * bounces, not replies. A message that cannot be parsed, or that the database refuses, is passed over
 * without losing the others.
 */
export async function syncMailbox(
  db: DbOrTx,
  clock: Clock,
  m: Mailbox,
  pool?: ImapConnections,
  opts: { /** the mailbox's imap_state rows, when the caller read them with others */ states?: ImapStateRow[] } = {},
): Promise<{ fetched: number; stored: number; bounces: number; sent: number }> {
  let client: Client;
  if (pool) client = await pool.get(m.id, imapConfigOf(m));
  else {
    client = imapClient(imapConfigOf(m));
    client.on("error", () => {});
    await client.connect();
  }
  const totals = { fetched: 0, stored: 0, bounces: 0, sent: 0 };
  const mb = { id: m.id, workspaceId: m.workspaceId, email: m.email };
  // Read once per mailbox sync, and only when a reply is to be classified by the AI provider.
  let aiSetting: Promise<boolean> | undefined;
  const ai: AiSwitch = () => (aiSetting ??= loadAiSettings(db, m.workspaceId).then((s) => s.aiClassificationEnabled));
  const states = new Map(
    (opts.states ?? (await db.select().from(imapState).where(eq(imapState.mailboxId, m.id)).prepare("inbox_states").execute())).map(
      (st) => [st.folder, st],
    ),
  );

  /**
   * Stores a batch and moves the folder's state to `upTo`, atomically: one statement for replies alone
   * (matched by one read before it), a transaction when bounces, Sent-folder messages, files or
   * unsubscribe requests take more statements. A failing batch is retried one message at a time, and
   * a message the database refuses is passed over.
   */
  const commit = async (folder: string, uidValidity: string, items: Item[], upTo: number): Promise<void> => {
    const state = { mailboxId: m.id, folder, uidValidity, lastUid: upTo };
    try {
      const plan = await planReplies(
        db,
        clock,
        mb,
        items.flatMap((x) => (x.kind === "reply" ? [x.reply] : [])),
      );
      const write = async (ex: DbOrTx) => {
        const stored = (await writeReplies(ex, clock, mb, plan, state)).filter((x) => !x.duplicate).length;
        let bounces = 0;
        for (const x of items) if (x.kind === "dsn" && (await applyDsn(ex, clock, m.id, x.dsn))) bounces++;
        const own = items.flatMap((x) => (x.kind === "own" ? [x.parsed] : []));
        const sent = own.length ? (await ingestOwnMessages(ex, mb, own)).filter(Boolean).length : 0;
        return { stored, bounces, sent };
      };
      const r = plan.needsTransaction || items.some((x) => x.kind !== "reply") ? await db.transaction(write) : await write(db);
      totals.stored += r.stored;
      totals.bounces += r.bounces;
      totals.sent += r.sent;
    } catch (e) {
      if (items.length > 1) {
        for (let k = 0; k < items.length; k++) await commit(folder, uidValidity, [items[k]], k === items.length - 1 ? upTo : items[k].uid);
        return;
      }
      if (items.length === 1 && isDataError(e)) {
        console.warn(
          `[inbox-sync] ${m.email} ${folder} UID ${items[0].uid}: not stored (${(e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message})`,
        );
        return commit(folder, uidValidity, [], upTo);
      }
      throw e;
    }
  };

  try {
    for (const folder of await foldersOf(client)) {
      const state = states.get(folder.path);
      // A folder with nothing new is not opened (STATUS is one round trip); INBOX still records the sync time.
      // (Not for the folder this connection has selected: STATUS there may not be current, RFC 3501 6.3.10.)
      const selected = client.mailbox && typeof client.mailbox === "object" ? client.mailbox.path : undefined;
      if (state && selected !== folder.path) {
        const st = await client.status(folder.path, { uidNext: true, uidValidity: true }).catch(() => undefined);
        if (st && String(st.uidValidity) === state.uidValidity && st.uidNext !== undefined && st.uidNext - 1 <= state.lastUid) {
          if (folder.path === "INBOX") {
            await db
              .update(imapState)
              .set({ lastSyncAt: clock.now() })
              .where(and(eq(imapState.mailboxId, m.id), eq(imapState.folder, "INBOX")))
              .prepare("inbox_synced_at")
              .execute();
          }
          continue;
        }
      }
      const box = await client.mailboxOpen(folder.path, { readOnly: true });
      const uidValidity = String(box.uidValidity);
      const lastUid = state && state.uidValidity === uidValidity ? state.lastUid : 0;
      // SELECT's UIDNEXT already says whether anything is new: then no FETCH at all.
      const listed: Listed[] = [];
      if (box.exists > 0 && !(typeof box.uidNext === "number" && box.uidNext - 1 <= lastUid)) {
        for await (const msg of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true, headers: [WARMUP_HEADER] }, { uid: true })) {
          if (msg.uid > lastUid) listed.push({ uid: msg.uid, size: msg.size ?? 0, warmup: hasWarmupHeader(msg.headers) });
        }
        listed.sort((a, b) => a.uid - b.uid);
      }
      if (!listed.length) {
        await saveState(db, m.id, folder.path, uidValidity, lastUid, clock.now());
        continue;
      }
      for (let start = 0; start < listed.length; ) {
        // A batch: up to BATCH_MESSAGES wanted messages and BATCH_BYTES (at least one message).
        let end = start;
        let count = 0;
        let bytes = 0;
        for (; end < listed.length; end++) {
          const x = listed[end];
          if (x.warmup || x.size > MAX_MESSAGE_BYTES) continue; // passed over, never downloaded
          if (count > 0 && (count >= BATCH_MESSAGES || bytes + x.size > BATCH_BYTES)) break;
          count++;
          bytes += x.size;
        }
        const batch = listed.slice(start, end);
        start = end;
        const wanted = batch.filter((x) => !x.warmup && x.size <= MAX_MESSAGE_BYTES).map((x) => x.uid);
        const sources = new Map<number, Buffer>();
        if (wanted.length) {
          for await (const msg of client.fetch(uidSet(wanted), { uid: true, source: true }, { uid: true }))
            if (msg.source && wanted.includes(msg.uid)) sources.set(msg.uid, msg.source);
        }
        totals.fetched += sources.size;
        const items: Item[] = [];
        const received: { uid: number; parsed: ParsedMail }[] = [];
        for (const uid of wanted) {
          const src = sources.get(uid);
          const parsed = src && (await simpleParser(src, PARSE_OPTIONS).catch(() => undefined)); // malformed beyond parsing: passed over
          if (!parsed || isWarmup(parsed)) continue;
          if (folder.kind === "sent") items.push({ uid, kind: "own", parsed });
          else {
            const dsn = parseDsn(parsed);
            if (dsn) items.push({ uid, kind: "dsn", dsn });
            else received.push({ uid, parsed });
          }
        }
        // Classified before the transaction (an AI provider may take seconds), in UID order with the rest.
        const prepared = await prepareReplies(
          db,
          mb,
          received.map((r) => ({ parsed: r.parsed, folder: folder.path, uid: r.uid, uidValidity })),
          ai,
        );
        for (const p of prepared) items.push({ uid: p.uid!, kind: "reply", reply: p });
        items.sort((a, b) => a.uid - b.uid);
        await commit(folder.path, uidValidity, items, batch[batch.length - 1].uid);
      }
    }
  } catch (e) {
    pool?.drop(m.id); // reconnect next time
    throw e;
  } finally {
    if (!pool) await client.logout().catch(() => client.close());
  }
  return totals;
}

/** A mailbox whose sync keeps failing is tried again after at most this long (or its connection's backoff, if longer). */
export const MAX_RETRY_MS = 5 * 60_000;

/** What a failed sync says, for the mailbox's `readError` (the IMAP server's words when there are some). */
function readErrorOf(e: unknown): string {
  const cause = e instanceof ImapBackoffError && e.cause ? e.cause : e;
  const x = cause as { responseText?: string; message?: string; code?: string } | undefined;
  return String(x?.responseText || x?.message || x?.code || e).slice(0, 1000);
}

/**
 * A sync that failed, for whatever reason (login, connection, a command, the backoff after earlier
 * failures): the mailbox's replies are unreadable, so READ_FAILING's clock runs (spec 2.8: reported
 * after 30 minutes; the health check's login probe starts it too), and the mailbox is not claimed
 * again before its retry time — the poll interval, growing with how long it has been failing up to
 * MAX_RETRY_MS, or its connection's backoff — so failing mailboxes never crowd out the others.
 * The clock starts at this failure, or — when the attempt before failed too, and the health check's
 * good login has cleared it meanwhile — at the last successful sync (when the mailbox was added, if
 * never): a failure the login probe cannot see (a command, a dropped connection) still gets reported.
 * One statement: the retry time is kept on the INBOX's imap_state row (`leased_until`).
 */
async function recordSyncFailure(db: DbOrTx, now: Date, m: Mailbox, e: unknown, backoffMs: number): Promise<void> {
  const floorMs = Math.max(pollIntervalMs(), backoffMs);
  await runPrepared(
    db,
    sql`
    with old as (select last_sync_at, leased_until from imap_state where mailbox_id = ${m.id} and folder = 'INBOX'),
    flagged as (
      update mailboxes set read_error = ${readErrorOf(e)},
        read_failing_since = coalesce(read_failing_since, case
          when exists (select 1 from old where leased_until is not null) then coalesce((select last_sync_at from old), created_at)
          else ${now.toISOString()}::timestamptz end)
      where id = ${m.id}
      returning read_failing_since
    )
    insert into imap_state (mailbox_id, folder, uid_validity, last_uid, leased_until)
    select ${m.id}::text, 'INBOX', '', 0, ${now.toISOString()}::timestamptz
      + greatest(${floorMs}::float8 * interval '1 millisecond', least(${now.toISOString()}::timestamptz - f.read_failing_since, ${MAX_RETRY_MS}::float8 * interval '1 millisecond'))
    from flagged f
    on conflict (mailbox_id, folder) do update set leased_until = excluded.leased_until`,
  );
}

/** A sync that worked after failures: readable again, no retry time. */
async function recordSyncRecovered(db: DbOrTx, m: Mailbox): Promise<void> {
  await runPrepared(
    db,
    sql`
    with readable as (update mailboxes set read_failing_since = null, read_error = null where id = ${m.id} and read_failing_since is not null)
    update imap_state set leased_until = null where mailbox_id = ${m.id} and folder = 'INBOX' and leased_until is not null`,
  );
}

/**
 * The reply sync job: each mailbox at most every IMAP_POLL_INTERVAL_S, one after another, on the
 * sidecar's kept connections. A mailbox whose sync fails waits for its retry time (recordSyncFailure);
 * one whose failure has been cleared meanwhile (the health check logged in, or its IMAP settings
 * changed) is tried at the next cycle. Mailboxes not failing go first.
 */
export const inboxSyncJob: JobDef = {
  name: "inbox-sync",
  cron: "* * * * *",
  everyMs: 5_000,
  async run({ db, clock }) {
    const now = clock.now();
    const due = new Date(now.getTime() - pollIntervalMs());
    // The due mailboxes with their rows, then every folder state of those mailboxes: two reads for the cycle.
    const claimed = (
      await db
        .select({ m: mailboxes })
        .from(mailboxes)
        .leftJoin(imapState, and(eq(imapState.mailboxId, mailboxes.id), eq(imapState.folder, "INBOX")))
        .where(
          and(
            eq(mailboxes.authType, "PASSWORD"),
            or(isNull(imapState.lastSyncAt), lte(imapState.lastSyncAt, due)),
            // Unreadable: only once its retry time has come (one the health check alone flagged waits for it to clear).
            or(isNull(mailboxes.readFailingSince), lte(imapState.leasedUntil, now)),
          ),
        )
        .orderBy(sql`${mailboxes.readFailingSince} is not null`, sql`${imapState.lastSyncAt} nulls first`)
        .limit(20)
    ).map((r) => r.m);
    const states = claimed.length
      ? await db
          .select()
          .from(imapState)
          .where(
            inArray(
              imapState.mailboxId,
              claimed.map((m) => m.id),
            ),
          )
      : [];
    let stored = 0;
    let failed = 0;
    for (const m of claimed) {
      const own = states.filter((s) => s.mailboxId === m.id);
      // Cleared since it last failed: someone found it reachable, so its connection need not wait out the backoff.
      if (!m.readFailingSince) sidecarConnections.clearBackoff(m.id);
      try {
        stored += (await syncMailbox(db, clock, m, sidecarConnections, { states: own })).stored;
      } catch (e) {
        failed++;
        await recordSyncFailure(db, clock.now(), m, e, sidecarConnections.backoffLeft(m.id) * 1000).catch((err) =>
          console.warn(`[inbox-sync] ${m.email}: failure not recorded (${(err as Error).message})`),
        );
        continue;
      }
      if (m.readFailingSince || own.some((s) => s.folder === "INBOX" && s.leasedUntil)) await recordSyncRecovered(db, m);
    }
    sidecarConnections.closeIdle();
    return { mailboxes: claimed.length, stored, failed, openConnections: sidecarConnections.size };
  },
};
