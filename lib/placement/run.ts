import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { bulkUpdate } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { mailboxes, placementResults, placementTests } from "../../db/schema";
import { mapLimit } from "../concurrency";
import type { JobCtx } from "../ctx";
import { finishTest } from "./finish";
import { type Found, findProbes } from "./imap-find";
import { tally } from "./rules";
import { loadSeedPool, type Seed, seedOfMailbox } from "./seeds";

/** A claimed test is ours this long: past a pass's reads (each seed bounded by IMAP timeouts), short enough after a crash. */
const LEASE_MS = 5 * 60_000;
/** Seeds of a RUNNING test are read at most this often: a login per seed per read, so not on every tick. */
export const READ_EVERY_MS = 30_000;
const TESTS_PER_PASS = 20;
const SEEDS_AT_ONCE = 4;

type Claimed = { id: string; deadlineAt: Date };
type Pending = { id: string; testId: string; seedEmail: string; seedMailboxId: string | null; messageId: string };

/** RUNNING tests whose lease is free (none, run out, or their next read is due), leased to this pass (SKIP LOCKED). */
async function claimTests(db: DbOrTx, now: Date): Promise<Claimed[]> {
  const due = db
    .select({ id: placementTests.id })
    .from(placementTests)
    .where(and(eq(placementTests.status, "RUNNING"), or(isNull(placementTests.leaseUntil), lte(placementTests.leaseUntil, now))))
    .orderBy(asc(placementTests.createdAt))
    .limit(TESTS_PER_PASS)
    .for("update", { skipLocked: true });
  return db
    .update(placementTests)
    .set({ leaseUntil: new Date(now.getTime() + LEASE_MS) })
    .where(and(inArray(placementTests.id, due), eq(placementTests.status, "RUNNING")))
    .returning({ id: placementTests.id, deadlineAt: placementTests.deadlineAt });
}

/** Each pending seed's IMAP login: a workspace seed's from its mailbox row, a pool seed's from SEED_POOL_FILE (read now). */
async function loginsOf(ctx: JobCtx, pending: Pending[]): Promise<Map<string, Seed["read"]>> {
  const ids = [...new Set(pending.flatMap((p) => (p.seedMailboxId ? [p.seedMailboxId] : [])))];
  const rows = ids.length ? await ctx.db.select().from(mailboxes).where(inArray(mailboxes.id, ids)) : [];
  let pool: Seed[] = [];
  if (pending.some((p) => !p.seedMailboxId)) {
    pool = await loadSeedPool().catch((e: Error) => {
      ctx.log.error("placement: seed pool unusable; its seeds stay unread", { error: e.message });
      return [];
    });
  }
  const logins = new Map<string, Seed["read"]>();
  for (const m of rows) logins.set(m.id, seedOfMailbox(ctx, m).read);
  for (const s of pool) logins.set(`pool:${s.email}`, s.read);
  return logins;
}

const seedKey = (p: Pending) => p.seedMailboxId ?? `pool:${p.seedEmail}`;

/** Reads every pending seed once (one connection per seed for all its probes); a seed that fails is read again next pass. */
async function readSeeds(ctx: JobCtx, pending: Pending[]): Promise<Map<string, Found>> {
  const logins = await loginsOf(ctx, pending);
  const bySeed = new Map<string, Pending[]>();
  for (const p of pending) bySeed.set(seedKey(p), [...(bySeed.get(seedKey(p)) ?? []), p]);
  const found = new Map<string, Found>(); // by result id
  await mapLimit([...bySeed], SEEDS_AT_ONCE, async ([key, rows]) => {
    const login = logins.get(key);
    if (!login) return; // a pool seed gone from the file, a seed mailbox deleted: MISSING at the deadline
    try {
      const ids = rows.map((r) => r.messageId);
      const hits = await login((cfg) => findProbes(cfg, ids));
      for (const r of rows) {
        const f = hits.get(r.messageId);
        if (f) found.set(r.id, f);
      }
    } catch (e) {
      ctx.log.warn("placement: seed unreadable", { seedEmail: rows[0].seedEmail, error: (e as Error).message });
    }
  });
  return found;
}

/**
 * The placement job: for RUNNING tests (leased, so two workers never read one test at once), reads each
 * PENDING seed's INBOX and spam folder for its probe; found → INBOX or SPAM with the folder and tab.
 * Past the deadline what is still not found is MISSING. A test with no PENDING seed left is finished
 * (COMPLETED, counts, placement.completed once, PLACEMENT_DROP judged); the others get their counts so
 * far and their next read in READ_EVERY_MS (or at the deadline, if sooner).
 */
export async function runPlacementReads(ctx: JobCtx): Promise<Record<string, unknown>> {
  const now = ctx.clock.now();
  const tests = await claimTests(ctx.db, now);
  if (!tests.length) return { tests: 0 };
  const ids = tests.map((t) => t.id);
  const pending = await ctx.db
    .select({
      id: placementResults.id,
      testId: placementResults.testId,
      seedEmail: placementResults.seedEmail,
      seedMailboxId: placementResults.seedMailboxId,
      messageId: placementResults.messageId,
    })
    .from(placementResults)
    .where(and(inArray(placementResults.testId, ids), eq(placementResults.placement, "PENDING")));
  const found = await readSeeds(ctx, pending);
  const rows = [...found].map(([id, f]) => ({ id, placement: f.placement, folder: f.folder, tab: f.tab, receivedAt: f.receivedAt ?? now }));
  await bulkUpdate(ctx.db, placementResults, "id", rows);
  const overdue = tests.filter((t) => t.deadlineAt <= now).map((t) => t.id);
  if (overdue.length) {
    await ctx.db
      .update(placementResults)
      .set({ placement: "MISSING" })
      .where(and(inArray(placementResults.testId, overdue), eq(placementResults.placement, "PENDING")));
  }
  return { tests: tests.length, read: pending.length, found: found.size, ...(await settle(ctx.db, tests, now)) };
}

/** Finishes the tests with no PENDING seed left; the others get their counts so far and their next read. */
async function settle(db: DbOrTx, tests: Claimed[], now: Date): Promise<{ completed: number }> {
  const results = await db
    .select({ testId: placementResults.testId, placement: placementResults.placement, tab: placementResults.tab })
    .from(placementResults)
    .where(
      inArray(
        placementResults.testId,
        tests.map((t) => t.id),
      ),
    );
  let completed = 0;
  const running: (ReturnType<typeof tally> & { id: string; leaseUntil: Date })[] = [];
  for (const t of tests) {
    const mine = results.filter((r) => r.testId === t.id);
    if (!mine.some((r) => r.placement === "PENDING")) {
      if (await finishTest(db, t.id, "COMPLETED", now)) completed++;
      continue;
    }
    const next = Math.min(now.getTime() + READ_EVERY_MS, t.deadlineAt.getTime());
    running.push({ id: t.id, ...tally(mine), leaseUntil: new Date(next) });
  }
  await bulkUpdate(db, placementTests, "id", running);
  return { completed };
}
