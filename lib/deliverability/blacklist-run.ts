import { eq, sql } from "drizzle-orm";
import { bulkInsert } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { blacklistJobs, blacklistResults } from "../../db/schema";
import { mapLimit } from "../concurrency";
import type { JobCtx } from "../ctx";
import { blacklistAlerts, type BlacklistVerdict } from "../domains/domain-alerts";
import { DNSBL_CONCURRENCY, dnsblZones, lookupDnsbl, sendingAddresses, verdictOf } from "../domains/dnsbl";
import { type BlacklistTarget, lookupCount } from "./blacklist";
import { leasedJobs } from "../jobs/leased";

/**
 * The blacklist-checks job (inngest/functions/blacklist-checks.ts): runs the (target × zone) look-ups
 * of queued blacklist jobs. A job is held with a lease (`lease_until`, also the holder's token: every
 * write of progress checks it is still ours and moves it on), so two workers never run one job at once;
 * a worker that dies leaves the lease to run out and the next one resumes: results are unique per
 * (job, target, zone) and the look-ups already recorded are not asked again.
 */

const LEASE_MS = 60_000;
/** A run stops starting batches after this long (the tick's other jobs are waiting); the next run goes on. */
const RUN_BUDGET_MS = 10_000;
/** Look-ups recorded per write of progress. */
const BATCH = 48;

type Job = typeof blacklistJobs.$inferSelect;
type Pair = { target: BlacklistTarget; zone: string };

const jobs = leasedJobs(blacklistJobs, LEASE_MS);
const claimJob = jobs.claim;
const whileHeld = jobs.whileHeld;

/** A QUEUED job's sending domains gain the addresses their A and MX records point to; the job becomes RUNNING. */
async function expand(db: DbOrTx, job: Job, now: Date): Promise<BlacklistTarget[] | undefined> {
  const targets: BlacklistTarget[] = job.targets.map((t) => ({ ...t }));
  const toExpand = targets.filter((t) => t.expand && t.type === "domain");
  const found = await mapLimit(toExpand, DNSBL_CONCURRENCY, async (t) => ({ domain: t.target, ips: await sendingAddresses(t.target) }));
  for (const { domain, ips } of found) {
    for (const ip of ips) {
      const have = targets.find((t) => t.type === "ip" && t.target === ip);
      if (!have) targets.push({ target: ip, type: "ip", sendingDomain: domain });
      else have.sendingDomain ??= domain;
    }
  }
  for (const t of targets) delete t.expand;
  const total = lookupCount(targets);
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  return (await whileHeld(db, job, { targets, total, status: "RUNNING", leaseUntil })) ? targets : undefined;
}

/** Every (target, zone) of the job not answered yet. */
async function remainingPairs(db: DbOrTx, job: Job, targets: BlacklistTarget[]): Promise<{ all: number; left: Pair[] }> {
  const zones = dnsblZones();
  const done = await db
    .select({ target: blacklistResults.target, zone: blacklistResults.zone })
    .from(blacklistResults)
    .where(eq(blacklistResults.jobId, job.id));
  const seen = new Set(done.map((d) => `${d.target} ${d.zone}`));
  const all = targets.flatMap((target) => zones[target.type].map((zone) => ({ target, zone })));
  return { all: all.length, left: all.filter((p) => !seen.has(`${p.target.target} ${p.zone}`)) };
}

/** Looks up one batch and records it with the job's progress (counted from the results, so a resumed job counts right). */
async function runBatch(db: DbOrTx, job: Job, batch: Pair[], now: Date): Promise<boolean> {
  const answers = await mapLimit(batch, DNSBL_CONCURRENCY, async (p) => ({
    p,
    a: await lookupDnsbl(p.target.target, p.target.type, p.zone),
  }));
  const rows = answers.map(({ p, a }) => ({
    jobId: job.id,
    target: p.target.target,
    type: p.target.type,
    zone: p.zone,
    listed: a.listed,
    answer: a.answer,
    checkedAt: now,
  }));
  return db.transaction(async (tx) => {
    // The lease first: a run that lost the job (its lease ran out and another took it) writes nothing.
    const held = await whileHeld(tx, job, { leaseUntil: new Date(now.getTime() + LEASE_MS) });
    if (!held) return false;
    await bulkInsert(tx, blacklistResults, rows, { onConflictDoNothing: true });
    await tx
      .update(blacklistJobs)
      .set({
        done: sql`(select count(*)::int from ${blacklistResults} where ${blacklistResults.jobId} = ${job.id})`,
        listedCount: sql`(select count(*)::int from ${blacklistResults} where ${blacklistResults.jobId} = ${job.id} and ${blacklistResults.listed})`,
      })
      .where(eq(blacklistJobs.id, job.id));
    return true;
  });
}

/** The job's verdict per sending target, from all its results: listed anywhere, or clean on every zone it was asked in. */
async function verdictsOf(db: DbOrTx, job: Job, targets: BlacklistTarget[]): Promise<BlacklistVerdict[]> {
  const results = await db.select().from(blacklistResults).where(eq(blacklistResults.jobId, job.id));
  return targets.flatMap((t) => {
    if (!t.sendingDomain) return [];
    const mine = results.filter((r) => r.target === t.target && r.type === t.type);
    return [{ target: t.target, type: t.type, sendingDomain: t.sendingDomain, ...verdictOf(mine) }];
  });
}

/** All look-ups answered: BLACKLISTED alerts raised and resolved, the job COMPLETED (one transaction). */
async function complete(db: DbOrTx, job: Job, targets: BlacklistTarget[], total: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const verdicts = await verdictsOf(tx, job, targets);
    const done = await whileHeld(tx, job, { status: "COMPLETED", total, completedAt: now, leaseUntil: null });
    if (done) await blacklistAlerts(tx, job.workspaceId, verdicts, now);
  });
}

/** One claimed job, as far as the budget allows. Returns the look-ups made. */
async function runJob(ctx: JobCtx, job: Job, until: number): Promise<number> {
  const { db, clock } = ctx;
  const targets = job.status === "QUEUED" ? await expand(db, job, clock.now()) : job.targets;
  if (!targets) return 0;
  const { all, left } = await remainingPairs(db, job, targets);
  if (all === 0) {
    const error = "No blocklist zones are configured (DNSBL_DOMAIN_ZONES, DNSBL_IP_ZONES)";
    await whileHeld(db, job, { status: "FAILED", error, completedAt: clock.now(), leaseUntil: null });
    return 0;
  }
  let made = 0;
  for (let i = 0; i < left.length; i += BATCH) {
    if (clock.now().getTime() >= until) {
      await whileHeld(db, job, { leaseUntil: null }); // free for the next run at once
      return made;
    }
    const batch = left.slice(i, i + BATCH);
    if (!(await runBatch(db, job, batch, clock.now()))) return made;
    made += batch.length;
  }
  await complete(db, job, targets, all, clock.now());
  return made;
}

/** Runs queued blacklist jobs, oldest first, within the run's budget. */
export async function runBlacklistChecks(ctx: JobCtx) {
  const until = ctx.clock.now().getTime() + RUN_BUDGET_MS;
  let jobs = 0;
  let lookups = 0;
  while (ctx.clock.now().getTime() < until) {
    const job = await claimJob(ctx.db, ctx.clock.now());
    if (!job) break;
    jobs++;
    try {
      lookups += await runJob(ctx, job, until);
    } catch (e) {
      // A job that throws (not a look-up failing: those are results) would fail again the same way.
      const error = `The check stopped: ${(e as Error).message}`.slice(0, 1000);
      ctx.log.warn(`[blacklist-checks] ${job.id}: ${error}`, { jobId: job.id });
      await whileHeld(ctx.db, job, { status: "FAILED", error, completedAt: ctx.clock.now(), leaseUntil: null }).catch(() => false);
    }
  }
  return { jobs, lookups };
}
