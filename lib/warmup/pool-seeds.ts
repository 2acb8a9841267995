import { and, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { warmupMessages } from "../../db/schema";
import type { Logger } from "../log";
import type { ImapConfig } from "../mail/imap";
import { findByMessageId, findJunkFolder, flagSeen, type ImapClient, inFolder, moveToInbox, withImap } from "../mail/imap-ops";
import { loadSeedPool, type Seed } from "../placement/seeds";

/**
 * The receiving side for the installation's seeds (SEED_POOL_FILE), which have no mailbox row for the
 * inbox sync to read: warmup mail sent to one is looked for by Message-ID in its INBOX and spam folder
 * over a short-lived connection, marked seen and flagged, moved out of spam, and recorded as received.
 * Pool seeds do not answer (the file holds their IMAP login only). Each seed is read at most once a
 * minute per process, and only while it has warmup mail not yet seen from the last two days.
 */

const READ_EVERY_MS = 60_000;
const LOOK_BACK_MS = 2 * 86_400_000;
const lastRead = new Map<string, number>();

/** Opens `path` read-write and takes the given Message-IDs found there: flags them, and moves them to INBOX from spam. */
async function takeFrom(client: ImapClient, path: string, ids: string[], spam: boolean): Promise<string[]> {
  return inFolder(client, path, async () => {
    const hits = await findByMessageId(client, ids);
    const uids = hits.map((h) => h.uid);
    await flagSeen(client, uids);
    if (spam) await moveToInbox(client, uids);
    return hits.map((h) => h.id);
  });
}

/** One pool seed: what it received of `ids`, by folder. */
async function readSeed(seed: Seed, ids: string[]): Promise<{ inbox: string[]; spam: string[]; junk?: string }> {
  return seed.read((cfg) => readWith(cfg, ids));
}

async function readWith(cfg: ImapConfig, ids: string[]): Promise<{ inbox: string[]; spam: string[]; junk?: string }> {
  return withImap(cfg, async (client) => {
    const junk = await findJunkFolder(client);
    const spam = junk ? await takeFrom(client, junk, ids, true) : [];
    const rest = ids.filter((id) => !spam.includes(id));
    return { inbox: await takeFrom(client, "INBOX", rest, false), spam, junk };
  });
}

/** Reads the pool seeds that have unseen warmup mail; returns how many emails were recorded received. */
export async function readPoolSeeds(db: DbOrTx, now: Date, log?: Logger): Promise<number> {
  const w = warmupMessages;
  const pending = await db
    .select({ id: w.id, toEmail: w.toEmail, messageId: w.messageId })
    .from(w)
    .where(
      and(
        isNull(w.toMailboxId),
        isNull(w.receivedAt),
        sql`${w.status} = 'SENT' and ${w.sentAt} > ${new Date(now.getTime() - LOOK_BACK_MS).toISOString()}::timestamptz`,
      ),
    );
  // The seeds with mail waiting whose minute is up; the file is read only when there is one (the job runs every second).
  const due = new Set(pending.map((p) => p.toEmail.toLowerCase()).filter((e) => now.getTime() - (lastRead.get(e) ?? 0) >= READ_EVERY_MS));
  if (!due.size) return 0;
  for (const e of due) lastRead.set(e, now.getTime()); // an address gone from the file too: not asked about every second
  const seeds = await loadSeedPool().catch(() => []);
  let received = 0;
  for (const seed of seeds) {
    const key = seed.email.toLowerCase();
    if (!due.has(key)) continue;
    const mine = pending.filter((p) => p.toEmail.toLowerCase() === key);
    try {
      const got = await readSeed(
        seed,
        mine.map((m) => m.messageId),
      );
      for (const [ids, folder, spam] of [
        [got.spam, got.junk ?? "Junk", true],
        [got.inbox, "INBOX", false],
      ] as const) {
        if (!ids.length) continue;
        await db
          .update(w)
          .set({ receivedAt: now, receivedFolder: folder, rescuedFromSpam: spam, answered: false })
          .where(inArray(w.messageId, [...ids]));
        received += ids.length;
      }
    } catch (e) {
      log?.error("warmup: pool seed could not be read", { seed: seed.email, error: String(e) });
    }
  }
  return received;
}
