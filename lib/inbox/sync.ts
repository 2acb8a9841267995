import { and, eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { imapState, mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import type { JobDef } from "../jobs/registry";
import { imapClient } from "../mail/imap";
import { sidecarConnections, type ImapConnections } from "./connections";
import { imapConfigOf } from "../mailboxes/credentials";
import { loadAiSettings } from "../ai/settings";
import { applyDsn, parseDsn } from "./dsn";
import { ingestMessage, ingestOwnMessage } from "./ingest";

/** Received files kept: 25 MB per message (spec 8); a larger message is skipped before download. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

export function pollIntervalMs(): number {
  const s = Number(process.env.IMAP_POLL_INTERVAL_S ?? 60);
  return (Number.isFinite(s) && s > 0 ? s : 60) * 1000;
}

type Mailbox = typeof mailboxes.$inferSelect;

type FolderKind = "inbound" | "sent";

/** The folder list of a kept connection, read once (LIST is not repeated every cycle). */
const folderCache = new WeakMap<object, { path: string; kind: FolderKind }[]>();

/** INBOX and the spam folder hold what others sent; the Sent folder holds answers written in a mail client. */
async function foldersOf(client: ReturnType<typeof imapClient>): Promise<{ path: string; kind: FolderKind }[]> {
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

/**
 * Reads new messages of each folder, incrementally by UIDVALIDITY + UID: a changed UIDVALIDITY starts
 * the folder over (the unique Message-ID per mailbox keeps that from duplicating replies). Messages
 * larger than 25 MB are skipped before download. Bounce reports become bounces, not replies.
 */
export async function syncMailbox(db: DbOrTx, clock: Clock, m: Mailbox, pool?: ImapConnections): Promise<{ fetched: number; stored: number; bounces: number; sent: number }> {
  let client: ReturnType<typeof imapClient>;
  if (pool) client = await pool.get(m.id, imapConfigOf(m));
  else {
    client = imapClient(imapConfigOf(m));
    client.on("error", () => {});
    await client.connect();
  }
  const totals = { fetched: 0, stored: 0, bounces: 0, sent: 0 };
  const mb = { id: m.id, workspaceId: m.workspaceId, email: m.email };
  const aiClassification = (await loadAiSettings(db, m.workspaceId)).aiClassificationEnabled;
  const states = new Map((await db.select().from(imapState).where(eq(imapState.mailboxId, m.id))).map((st) => [st.folder, st]));
  try {
    for (const folder of await foldersOf(client)) {
      const state = states.get(folder.path);
      // A folder with nothing new is not opened (STATUS is one round trip); INBOX still records the sync time.
      // (Not for the folder this connection has selected: STATUS there may not be current, RFC 3501 6.3.10.)
      const selected = client.mailbox && typeof client.mailbox === "object" ? client.mailbox.path : undefined;
      if (state && selected !== folder.path) {
        const st = await client.status(folder.path, { uidNext: true, uidValidity: true }).catch(() => undefined);
        if (st && String(st.uidValidity) === state.uidValidity && st.uidNext !== undefined && st.uidNext - 1 <= state.lastUid) {
          if (folder.path === "INBOX") await db.update(imapState).set({ lastSyncAt: clock.now() }).where(and(eq(imapState.mailboxId, m.id), eq(imapState.folder, "INBOX")));
          continue;
        }
      }
      const box = await client.mailboxOpen(folder.path, { readOnly: true });
      const uidValidity = String(box.uidValidity);
      let lastUid = state && state.uidValidity === uidValidity ? state.lastUid : 0;
      if (box.exists > 0) {
        const sizes: { uid: number; size: number }[] = [];
        for await (const msg of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true }, { uid: true })) if (msg.uid > lastUid) sizes.push({ uid: msg.uid, size: msg.size ?? 0 });
        for (const { uid, size } of sizes.sort((a, b) => a.uid - b.uid)) {
          if (size <= MAX_MESSAGE_BYTES) {
            const msg = await client.fetchOne(String(uid), { source: true }, { uid: true });
            if (msg && msg.source) {
              totals.fetched++;
              const parsed = await simpleParser(msg.source).catch(() => undefined);
              if (parsed) {
                if (folder.kind === "sent") {
                  if (await ingestOwnMessage(db, mb, parsed)) totals.sent++;
                } else {
                  const dsn = parseDsn(parsed);
                  if (dsn) {
                    if (await applyDsn(db, clock, m.id, dsn)) totals.bounces++;
                  } else {
                    const r = await ingestMessage(db, clock, mb, parsed, { folder: folder.path, uid, uidValidity, aiClassification });
                    if (r && !r.duplicate) totals.stored++;
                  }
                }
              }
            }
          }
          lastUid = uid;
        }
      }
      await db
        .insert(imapState)
        .values({ mailboxId: m.id, folder: folder.path, uidValidity, lastUid, lastSyncAt: clock.now() })
        .onConflictDoUpdate({ target: [imapState.mailboxId, imapState.folder], set: { uidValidity, lastUid, lastSyncAt: clock.now() } });
    }
  } catch (e) {
    pool?.drop(m.id); // reconnect next time
    throw e;
  } finally {
    if (!pool) await client.logout().catch(() => client.close());
  }
  return totals;
}

/** The reply sync job: each mailbox at most every IMAP_POLL_INTERVAL_S, claimed so two workers never read one at once. */
export const inboxSyncJob: JobDef = {
  name: "inbox-sync",
  cron: "* * * * *",
  everyMs: 5_000,
  async run({ db, clock }) {
    const now = clock.now();
    const due = new Date(now.getTime() - pollIntervalMs()).toISOString();
    const claimed = (await db.execute(sql`
      select m.id from mailboxes m
      left join imap_state s on s.mailbox_id = m.id and s.folder = 'INBOX'
      where m.auth_type = 'PASSWORD' and m.read_failing_since is null
        and (s.last_sync_at is null or s.last_sync_at <= ${due}::timestamptz)
      order by s.last_sync_at nulls first limit 20`)) as unknown as { id: string }[];
    let stored = 0;
    let failed = 0;
    for (const { id } of claimed) {
      const [m] = await db.select().from(mailboxes).where(eq(mailboxes.id, id));
      if (!m) continue;
      try {
        stored += (await syncMailbox(db, clock, m, sidecarConnections)).stored;
      } catch {
        failed++; // the health check reports unreadable mailboxes (READ_FAILING)
      }
    }
    sidecarConnections.closeIdle();
    return { mailboxes: claimed.length, stored, failed, openConnections: sidecarConnections.size };
  },
};
