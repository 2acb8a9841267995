import { and, count, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { imapState, mailboxes } from "../../../db/schema";
import { mapLimit } from "../../concurrency";
import type { JobCtx } from "../../ctx";
import { jobsEnv } from "../../env";
import { type ImapConnections, sidecarConnections } from "../connections";
import type { Totals } from "./commit";
import { readMailbox } from "./mailbox";
import { pollIntervalMs, recordSyncFailure, recordSyncRecovered } from "./failures";
import { cycleSize, otherFoldersDue, rotation } from "./rotation";

/** The local runner starts a sync cycle this often (inngest/functions/inbox-sync.ts). */
export const CYCLE_EVERY_MS = 5_000;

/**
 * The due mailboxes with their rows, then every folder state of those mailboxes: two reads for the
 * cycle (after a count of all mailboxes, which sizes the claim: rotation.ts's cycleSize). Due: not synced for a poll interval; an unreadable one only once its retry time has come (one
 * the health check alone flagged waits for it to clear). Mailboxes not failing go first, then the
 * longest unsynced.
 */
async function claimDue(db: DbOrTx, now: Date) {
  const [{ total }] = await db.select({ total: count() }).from(mailboxes);
  const due = new Date(now.getTime() - pollIntervalMs());
  const claimed = (
    await db
      .select({ m: mailboxes })
      .from(mailboxes)
      .leftJoin(imapState, and(eq(imapState.mailboxId, mailboxes.id), eq(imapState.folder, "INBOX")))
      .where(
        and(
          or(isNull(imapState.lastSyncAt), lte(imapState.lastSyncAt, due)),
          or(isNull(mailboxes.readFailingSince), lte(imapState.leasedUntil, now)),
        ),
      )
      .orderBy(sql`${mailboxes.readFailingSince} is not null`, sql`${imapState.lastSyncAt} nulls first`, mailboxes.id)
      .limit(cycleSize(total, pollIntervalMs(), CYCLE_EVERY_MS))
  ).map((r) => r.m);
  const ids = claimed.map((m) => m.id);
  const states = ids.length ? await db.select().from(imapState).where(inArray(imapState.mailboxId, ids)) : [];
  const byMailbox = new Map<string, typeof states>();
  for (const s of states) byMailbox.set(s.mailboxId, [...(byMailbox.get(s.mailboxId) ?? []), s]);
  return claimed.map((m) => ({ m, states: byMailbox.get(m.id) ?? [] }));
}

type Claimed = Awaited<ReturnType<typeof claimDue>>[number];

/** A mailbox's sync, once everything read is stored: counted, and its failure or recovery recorded. */
async function settle(
  ctx: JobCtx,
  pool: ImapConnections,
  c: Claimed,
  done: Promise<Totals>,
  result: { stored: number; failed: number },
): Promise<boolean> {
  const { m, states } = c;
  try {
    const totals = await done; // before the +=, which would read `result.stored` ahead of the await
    result.stored += totals.stored;
  } catch (e) {
    result.failed++;
    await recordSyncFailure(ctx.db, ctx.clock.now(), m.id, e, pool.backoffLeft(m.id) * 1000).catch((err) =>
      ctx.log.warn(`[inbox-sync] ${m.email}: failure not recorded (${(err as Error).message})`, { mailboxId: m.id }),
    );
    return false;
  }
  if (m.readFailingSince || states.some((s) => s.folder === "INBOX" && s.leasedUntil)) await recordSyncRecovered(ctx.db, m.id);
  return true;
}

/** When this worker last read each mailbox's Junk and Sent (ms, the jobs' clock); INBOX is read every interval. */
const otherFoldersReadAt = new Map<string, number>();

/**
 * The reply sync (the inbox-sync job, inngest/functions/inbox-sync.ts): each mailbox at most every
 * IMAP_POLL_INTERVAL_S, IMAP_SYNC_CONCURRENCY mailboxes read at once on the sidecar's kept connections,
 * each one's store awaited in its slot. rotation.ts decides the order (healthy first, then the least
 * recently read) and which mailboxes keep a connection: at most IMAP_MAX_CONNECTIONS, the rest connect,
 * read and log out by turns. INBOX is read every interval, Junk and Sent every IMAP_OTHER_FOLDERS_EVERY
 * (always on a worker's first read). A mailbox whose sync fails waits for its retry time
 * (recordSyncFailure); one whose failure has been cleared meanwhile (the health check logged in, or its
 * IMAP settings changed) is tried at the next cycle.
 */
export async function runInboxSync(ctx: JobCtx, pool: ImapConnections = sidecarConnections) {
  const now = ctx.clock.now().getTime();
  const claimed = await claimDue(ctx.db, new Date(now));
  const { concurrency, maxConnections, otherFoldersEvery } = jobsEnv.imapSync();
  const byId = new Map(claimed.map((c) => [c.m.id, c]));
  const due = claimed.map(({ m, states }) => ({
    id: m.id,
    lastReadAt: states.find((s) => s.folder === "INBOX")?.lastSyncAt?.getTime() ?? null,
    failing: !!m.readFailingSince,
    kept: pool.holds(m.id),
  }));
  const plan = rotation(due, { kept: pool.size, cap: maxConnections, inFlight: concurrency });
  const result = { stored: 0, failed: 0 };
  await mapLimit(plan, concurrency, async ({ id, keep }) => {
    const c = byId.get(id)!;
    // Cleared since it last failed: someone found it reachable, so its connection need not wait out the backoff.
    if (!c.m.readFailingSince) pool.clearBackoff(id);
    const all = otherFoldersDue(otherFoldersReadAt.get(id), now, pollIntervalMs(), otherFoldersEvery);
    const read = readMailbox(ctx, c.m, { pool, states: c.states, folders: all ? "all" : "inbox" });
    const done = read.then((r) => r.done);
    await read.catch(() => {}); // the connection is free (its failure is settle's)
    if (!keep) await pool.release(id);
    if ((await settle(ctx, pool, c, done, result)) && all) otherFoldersReadAt.set(id, now);
  });
  pool.closeIdle();
  return { mailboxes: claimed.length, ...result, openConnections: pool.size };
}
