import type { ParsedMail } from "mailparser";
import type { JobCtx } from "../../ctx";
import { applyDsn, type DsnReport } from "../dsn";
import { ingestOwnMessages, type Mailbox, planReplies, type PreparedReply, storeReplies, writeReplies } from "../ingest";

/** What one downloaded message of a batch is, decided before the transaction. */
export type Item = { uid: number } & (
  | { kind: "reply"; reply: PreparedReply }
  | { kind: "dsn"; dsn: DsnReport }
  | { kind: "own"; parsed: ParsedMail }
);

export type SyncCtx = Pick<JobCtx, "db" | "clock" | "log">;
export type Totals = { fetched: number; stored: number; bounces: number; sent: number };

/** Messages the database refuses for what they contain (SQLSTATE class 22 data exception, 54 program limit, e.g. an index row too large). */
function isDataError(e: unknown): boolean {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; x && depth < 5; x = x.cause as typeof x, depth++) {
    if (typeof x.code === "string" && /^(22|54)[0-9A-Z]{3}$/.test(x.code)) return true;
  }
  return false;
}

/** Why the database refused a message, for the log. */
function reasonOf(e: unknown): string {
  return (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
}

/**
 * Stores a batch and moves the folder's state to `upTo`, atomically, in one transaction: the replies
 * (matched by one read before it, see ../ingest/store.ts), bounce reports and Sent-folder messages.
 * A failing batch is retried one message at a time, and a message the database refuses is logged and
 * passed over, so it neither blocks the folder nor costs the others.
 */
export async function commitBatch(
  ctx: SyncCtx,
  m: Mailbox,
  at: { folder: string; uidValidity: string; upTo: number },
  items: Item[],
  totals: Totals,
): Promise<void> {
  const { db, clock } = ctx;
  const state = { mailboxId: m.id, folder: at.folder, uidValidity: at.uidValidity, lastUid: at.upTo };
  try {
    const replies = items.flatMap((x) => (x.kind === "reply" ? [x.reply] : []));
    const plan = await planReplies(db, clock, m, replies);
    const onlyReplies = replies.length === items.length;
    const r = onlyReplies
      ? { stored: (await storeReplies(db, clock, m, plan, state)).filter((x) => !x.duplicate).length, bounces: 0, sent: 0 }
      : await db.transaction(async (tx) => {
          const stored = (await writeReplies(tx, clock, m, plan, state)).filter((x) => !x.duplicate).length;
          let bounces = 0;
          for (const x of items) if (x.kind === "dsn" && (await applyDsn(tx, clock, m.id, x.dsn))) bounces++;
          const own = items.flatMap((x) => (x.kind === "own" ? [x.parsed] : []));
          const sent = own.length ? (await ingestOwnMessages(tx, clock, m, own)).filter(Boolean).length : 0;
          return { stored, bounces, sent };
        });
    totals.stored += r.stored;
    totals.bounces += r.bounces;
    totals.sent += r.sent;
  } catch (e) {
    if (items.length > 1) {
      for (const [k, x] of items.entries()) {
        const upTo = k === items.length - 1 ? at.upTo : x.uid;
        await commitBatch(ctx, m, { ...at, upTo }, [x], totals);
      }
      return;
    }
    if (items.length === 1 && isDataError(e)) {
      ctx.log.warn(`[inbox-sync] ${m.email} ${at.folder} UID ${items[0].uid}: not stored (${reasonOf(e)})`, { mailboxId: m.id });
      return commitBatch(ctx, m, at, [], totals);
    }
    throw e;
  }
}
