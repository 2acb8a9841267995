import { and, eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { imapState, mailboxes } from "../../db/schema";
import type { Clock } from "../clock";
import type { JobDef } from "../jobs/registry";
import { imapClient } from "../mail/imap";
import { imapConfigOf } from "../mailboxes/credentials";
import { ingestMessage } from "./ingest";

/** Received files kept: 25 MB per message (spec 8); a larger message is skipped before download. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

export function pollIntervalMs(): number {
  const s = Number(process.env.IMAP_POLL_INTERVAL_S ?? 60);
  return (Number.isFinite(s) && s > 0 ? s : 60) * 1000;
}

type Mailbox = typeof mailboxes.$inferSelect;

/**
 * Reads new messages of one folder, incrementally by UIDVALIDITY + UID: a changed UIDVALIDITY starts
 * the folder over (the unique Message-ID per mailbox keeps that from duplicating replies).
 */
export async function syncMailbox(db: DbOrTx, clock: Clock, m: Mailbox, folder = "INBOX"): Promise<{ fetched: number; stored: number }> {
  const client = imapClient(imapConfigOf(m));
  client.on("error", () => {});
  await client.connect();
  let fetched = 0;
  let stored = 0;
  try {
    const box = await client.mailboxOpen(folder, { readOnly: true });
    const uidValidity = String(box.uidValidity);
    const [state] = await db.select().from(imapState).where(and(eq(imapState.mailboxId, m.id), eq(imapState.folder, folder)));
    let lastUid = state && state.uidValidity === uidValidity ? state.lastUid : 0;
    if (box.exists > 0) {
      const sizes: { uid: number; size: number }[] = [];
      for await (const msg of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true }, { uid: true })) if (msg.uid > lastUid) sizes.push({ uid: msg.uid, size: msg.size ?? 0 });
      for (const { uid, size } of sizes.sort((a, b) => a.uid - b.uid)) {
        if (size <= MAX_MESSAGE_BYTES) {
          const msg = await client.fetchOne(String(uid), { source: true }, { uid: true });
          if (msg && msg.source) {
            fetched++;
            const parsed = await simpleParser(msg.source);
            const r = await ingestMessage(db, clock, { id: m.id, workspaceId: m.workspaceId, email: m.email }, parsed, { folder, uid, uidValidity });
            if (r && !r.duplicate) stored++;
          }
        }
        lastUid = uid;
      }
    }
    await db
      .insert(imapState)
      .values({ mailboxId: m.id, folder, uidValidity, lastUid, lastSyncAt: clock.now() })
      .onConflictDoUpdate({ target: [imapState.mailboxId, imapState.folder], set: { uidValidity, lastUid, lastSyncAt: clock.now() } });
  } finally {
    await client.logout().catch(() => client.close());
  }
  return { fetched, stored };
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
        stored += (await syncMailbox(db, clock, m)).stored;
      } catch {
        failed++; // the health check reports unreadable mailboxes (READ_FAILING)
      }
    }
    return { mailboxes: claimed.length, stored, failed };
  },
};
