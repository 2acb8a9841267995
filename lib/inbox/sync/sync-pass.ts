import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { imapState, mailboxes } from "../../../db/schema";
import type { JobCtx } from "../../ctx";
import { type ImapConnections, sidecarConnections } from "../connections";
import type { Totals } from "./commit";
import { readMailbox } from "./mailbox";
import { pollIntervalMs, recordSyncFailure, recordSyncRecovered } from "./failures";

/** Mailboxes synced per cycle. */
const PER_CYCLE = 20;

/**
 * The due mailboxes with their rows, then every folder state of those mailboxes: two reads for the
 * cycle. Due: not synced for a poll interval; an unreadable one only once its retry time has come (one
 * the health check alone flagged waits for it to clear). Mailboxes not failing go first, then the
 * longest unsynced.
 */
async function claimDue(db: DbOrTx, now: Date) {
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
      .orderBy(sql`${mailboxes.readFailingSince} is not null`, sql`${imapState.lastSyncAt} nulls first`)
      .limit(PER_CYCLE)
  ).map((r) => r.m);
  const ids = claimed.map((m) => m.id);
  const states = ids.length ? await db.select().from(imapState).where(inArray(imapState.mailboxId, ids)) : [];
  return claimed.map((m) => ({ m, states: states.filter((s) => s.mailboxId === m.id) }));
}

type Claimed = Awaited<ReturnType<typeof claimDue>>[number];

/** A mailbox's sync, once everything read is stored: counted, and its failure or recovery recorded. */
async function settle(ctx: JobCtx, pool: ImapConnections, c: Claimed, done: Promise<Totals>, result: { stored: number; failed: number }) {
  const { m, states } = c;
  try {
    const totals = await done; // before the +=, which would read `result.stored` ahead of the await
    result.stored += totals.stored;
  } catch (e) {
    result.failed++;
    await recordSyncFailure(ctx.db, ctx.clock.now(), m.id, e, pool.backoffLeft(m.id) * 1000).catch((err) =>
      ctx.log.warn(`[inbox-sync] ${m.email}: failure not recorded (${(err as Error).message})`, { mailboxId: m.id }),
    );
    return;
  }
  if (m.readFailingSince || states.some((s) => s.folder === "INBOX" && s.leasedUntil)) await recordSyncRecovered(ctx.db, m.id);
}

/**
 * The reply sync (the inbox-sync job, inngest/functions/inbox-sync.ts): each mailbox at most every
 * IMAP_POLL_INTERVAL_S, read one after another on the sidecar's kept connections; while a mailbox is
 * read, the one before is still being stored (at most one behind: its database work and parsing
 * overlap this one's IMAP round trips). A mailbox whose sync fails waits for its retry time
 * (recordSyncFailure); one whose failure has been cleared meanwhile (the health check logged in, or its
 * IMAP settings changed) is tried at the next cycle.
 */
export async function runInboxSync(ctx: JobCtx, pool: ImapConnections = sidecarConnections) {
  const claimed = await claimDue(ctx.db, ctx.clock.now());
  const result = { stored: 0, failed: 0 };
  let behind: Promise<void> = Promise.resolve();
  for (const c of claimed) {
    // Cleared since it last failed: someone found it reachable, so its connection need not wait out the backoff.
    if (!c.m.readFailingSince) pool.clearBackoff(c.m.id);
    const read = readMailbox(ctx, c.m, { pool, states: c.states });
    const settled = settle(
      ctx,
      pool,
      c,
      read.then((r) => r.done),
      result,
    );
    settled.catch(() => {}); // awaited below, one mailbox later
    await read.catch(() => {}); // the connection is free (its failure is settled's)
    await behind;
    behind = settled;
  }
  await behind;
  pool.closeIdle();
  return { mailboxes: claimed.length, ...result, openConnections: pool.size };
}
