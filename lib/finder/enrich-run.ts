import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { finderEnrichJobs as jobs, finderEnrichResults as results, finderPeople, leads } from "../../db/schema";
import { mapLimit } from "../concurrency";
import type { JobCtx } from "../ctx";
import { leasedJobs } from "../jobs/leased";
import { withProviderGuesses } from "./provider-guesses";
import { verifyEnv } from "../env";
import { type Verdict, unreachableHint, verifyAtDomain } from "./verify";

/**
 * The finder-enrich job (inngest/functions/finder-enrich.ts): works the pending people of open
 * enrichment jobs, domain by domain (domains at once, one person at a time within a domain). Each
 * person's verdict is written under the job's lease (lib/jobs/leased.ts): a cancelled job has lost its
 * lease, so the run stops before the next person and sends no further RCPT. Greylisted people stay
 * pending with a next attempt time on the injectable clock (GREYLIST_RETRY_MS after each 4xx, UNKNOWN
 * after GREYLIST_ATTEMPTS of them); the job completes when no person is pending. When the SMTP port
 * cannot be reached at all (refused, or no connection), that is found once for the job, not person by
 * person: everyone still waiting is UNKNOWN with that reason, and the job completes with what to do.
 */

const LEASE_MS = 120_000;
/** How long one run works before it returns, by the injected clock (the person under way is finished). */
export const RUN_BUDGET_MS = 20_000;
const DOMAINS_AT_ONCE = 4;
export const GREYLIST_RETRY_MS = [5 * 60_000, 15 * 60_000, 60 * 60_000];
export const GREYLIST_ATTEMPTS = GREYLIST_RETRY_MS.length + 1;

type Job = typeof jobs.$inferSelect;
type Result = typeof results.$inferSelect;

const leased = leasedJobs(jobs, LEASE_MS);

/** The verdict a person's row takes, and whether it stays pending for a retry. */
function outcome(r: Result, v: Verdict, now: Date): Partial<Result> {
  if (v.status === "GREYLISTED") {
    const attempts = r.attempts + 1;
    if (attempts < GREYLIST_ATTEMPTS) {
      return { attempts, nextAttemptAt: new Date(now.getTime() + GREYLIST_RETRY_MS[attempts - 1]), espClass: v.espClass, detail: v.detail };
    }
    return {
      attempts,
      pending: false,
      verificationStatus: "UNKNOWN",
      espClass: v.espClass,
      detail: `still greylisted after ${attempts} attempts: ${v.detail}`,
    };
  }
  return { attempts: r.attempts + 1, pending: false, email: v.email, verificationStatus: v.status, espClass: v.espClass, detail: v.detail };
}

/** The verdict copied to the person (ENRICH: the found email) or the lead (LEADS: its status). */
async function copyOut(tx: DbOrTx, job: Job, r: Result, set: Partial<Result>) {
  if (set.pending !== false) return;
  if (job.kind === "LEADS") {
    await tx
      .update(leads)
      .set({ verificationStatus: set.verificationStatus })
      .where(and(eq(leads.id, r.subjectId), eq(leads.workspaceId, job.workspaceId)));
  } else if (set.email) {
    await tx
      .update(finderPeople)
      .set({ email: set.email, verificationStatus: set.verificationStatus, espClass: set.espClass })
      .where(and(eq(finderPeople.id, r.subjectId), eq(finderPeople.workspaceId, job.workspaceId)));
  }
}

/** Writes one person's outcome and the job's counts, only while the lease is ours. False: the job was lost (cancelled). */
async function record(db: DbOrTx, job: Job, r: Result, set: Partial<Result>, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await leased.whileHeld(tx, job, { leaseUntil: new Date(now.getTime() + LEASE_MS) }))) return false;
    await tx
      .update(results)
      .set(set)
      .where(and(eq(results.jobId, job.id), eq(results.subjectId, r.subjectId)));
    await copyOut(tx, job, r, set);
    const of = sql`from ${results} where ${results.jobId} = ${job.id}`;
    await tx
      .update(jobs)
      .set({
        done: sql`(select count(*)::int ${of} and not ${results.pending})`,
        found: sql`(select count(*)::int ${of} and ${results.email} is not null)`,
        verified: sql`(select count(*)::int ${of} and ${results.verificationStatus} = 'VALID')`,
      })
      .where(eq(jobs.id, job.id));
    return true;
  });
}

async function verdictFor(ctx: JobCtx, job: Job, r: Result): Promise<Verdict> {
  const candidates = job.kind === "ENRICH" ? await withProviderGuesses(ctx, job, r) : r.candidates;
  // verify: false — the best guess, unverified, no SMTP at all.
  if (!job.verify) return { status: "UNKNOWN", email: candidates[0] ?? null, espClass: "UNKNOWN", detail: "not verified (verify: false)" };
  return verifyAtDomain(r.domain ?? "", candidates);
}

/** What the domains of one run share: set once a person's MX could not be reached on the SMTP port. */
interface RunState {
  unreachable?: string;
}

/**
 * One domain's due people, one after another; stops when the lease is lost, the budget is spent, or
 * any domain of the run found the SMTP port unreachable.
 */
async function runDomain(ctx: JobCtx, job: Job, rows: Result[], until: number, run: RunState): Promise<{ worked: number; lost: boolean }> {
  let worked = 0;
  for (const r of rows) {
    if (ctx.clock.now().getTime() > until || run.unreachable) break;
    const v = await verdictFor(ctx, job, r);
    if (v.unreachable) run.unreachable ??= v.detail;
    const set = outcome(r, v, ctx.clock.now());
    if (!job.verify && set.pending === false) set.verificationStatus = "UNVERIFIED";
    if (!(await record(ctx.db, job, r, set, ctx.clock.now()))) return { worked, lost: true };
    worked++;
  }
  return { worked, lost: false };
}

/**
 * The SMTP port cannot be reached from here: everyone still pending (greylisting retries included) is
 * UNKNOWN with the reason, leads get that status, and the job completes carrying what to do in `error`.
 */
async function giveUpUnreachable(ctx: JobCtx, job: Job, reason: string): Promise<void> {
  const hint = unreachableHint(verifyEnv.port);
  const detail = `${reason} — ${hint}`;
  await ctx.db.transaction(async (tx) => {
    if (!(await leased.whileHeld(tx, job, { leaseUntil: new Date(ctx.clock.now().getTime() + LEASE_MS) }))) return;
    const left = await tx
      .update(results)
      .set({ pending: false, verificationStatus: "UNKNOWN", nextAttemptAt: null, detail, attempts: sql`${results.attempts} + 1` })
      .where(and(eq(results.jobId, job.id), eq(results.pending, true)))
      .returning({ subjectId: results.subjectId });
    if (job.kind === "LEADS" && left.length) {
      const ids = left.map((r) => r.subjectId);
      await tx
        .update(leads)
        .set({ verificationStatus: "UNKNOWN" })
        .where(and(eq(leads.workspaceId, job.workspaceId), sql`${leads.id} = any(${ids})`));
    }
    await leased.whileHeld(tx, job, { status: "COMPLETED", completedAt: ctx.clock.now(), leaseUntil: null, error: hint, done: job.total });
  });
}

/** One claimed job as far as the budget goes; COMPLETED when nobody is left pending. */
async function runJob(ctx: JobCtx, job: Job, until: number): Promise<number> {
  const now = ctx.clock.now();
  if (job.status === "QUEUED" && !(await leased.whileHeld(ctx.db, job, { status: "RUNNING" }))) return 0;
  const due = await ctx.db
    .select()
    .from(results)
    .where(and(eq(results.jobId, job.id), eq(results.pending, true), or(isNull(results.nextAttemptAt), lte(results.nextAttemptAt, now))))
    .orderBy(asc(results.position));
  const byDomain = new Map<string, Result[]>();
  for (const r of due) byDomain.set(r.domain ?? "", [...(byDomain.get(r.domain ?? "") ?? []), r]);
  const run: RunState = {};
  const runs = await mapLimit([...byDomain.values()], DOMAINS_AT_ONCE, (rows) => runDomain(ctx, job, rows, until, run));
  const worked = runs.reduce((n, r) => n + r.worked, 0);
  if (runs.some((r) => r.lost)) return worked;
  if (run.unreachable) {
    await giveUpUnreachable(ctx, job, run.unreachable);
    return worked;
  }
  const [left] = await ctx.db
    .select({
      n: sql<number>`count(*)::int`,
      next: sql<string | null>`case when bool_or(${results.nextAttemptAt} is null) then null else min(${results.nextAttemptAt}) end`,
    })
    .from(results)
    .where(and(eq(results.jobId, job.id), eq(results.pending, true)));
  if (!left?.n) await leased.whileHeld(ctx.db, job, { status: "COMPLETED", completedAt: ctx.clock.now(), leaseUntil: null });
  // People waiting for a greylisting retry (or left by the budget): the job is held until the first is due,
  // so claims pass over it to newer jobs meanwhile.
  // (A lease is free once it is strictly past: it ends 1 ms before the first retry is due.)
  else await leased.whileHeld(ctx.db, job, { leaseUntil: left.next ? new Date(new Date(left.next).getTime() - 1) : null });
  return worked;
}

/** The job's entry point: open jobs one after another until the budget is spent. */
export async function runFinderEnrich(ctx: JobCtx): Promise<{ jobs: number; people: number }> {
  const until = ctx.clock.now().getTime() + RUN_BUDGET_MS;
  const seen = new Set<string>();
  let people = 0;
  while (ctx.clock.now().getTime() < until) {
    const job = await leased.claim(ctx.db, ctx.clock.now());
    if (!job || seen.has(job.id)) break;
    seen.add(job.id);
    people += await runJob(ctx, job, until);
  }
  return { jobs: seen.size, people };
}
