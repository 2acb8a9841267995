import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { bulkInsert } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { finderEnrichJobs as jobs, finderEnrichResults as results, finderPeople, leads } from "../../db/schema";
import { useCredit } from "../ai/settings";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { candidatesFor, colleaguePatterns, type PersonForEnrich } from "./candidates";

/**
 * Enrichment jobs (see docs/finder.md): estimate, start, progress, cancel. A job
 * holds one result row per person with the addresses to try (worked by enrich-run.ts). A person who
 * can be worked (a known email, or a company domain and a name) costs one of the workspace's monthly
 * AI credits, all taken when the job starts: not enough credits → 429 AI_CREDITS and no job.
 * POST /leads with `verify: true` starts a LEADS job: each lead's own address verified, no credits.
 */

type JobRow = typeof jobs.$inferSelect;

async function loadPeople(db: DbOrTx, workspaceId: string, ids: string[]): Promise<PersonForEnrich[]> {
  const unique = [...new Set(ids)];
  const rows = await db
    .select({
      id: finderPeople.id,
      firstName: finderPeople.firstName,
      lastName: finderPeople.lastName,
      companyDomain: finderPeople.companyDomain,
      email: finderPeople.email,
    })
    .from(finderPeople)
    .where(and(eq(finderPeople.workspaceId, workspaceId), inArray(finderPeople.id, unique)));
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw ValidationError.field("personIds", `not in this workspace's directory: ${missing.slice(0, 10).join(", ")}`);
  const order = new Map(unique.map((id, i) => [id, i]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

const workable = (p: PersonForEnrich) => Boolean(p.email || (p.companyDomain && (p.firstName || p.lastName)));

/** POST /finder/enrich/estimate: how many of the people can be worked, and what that costs. */
export async function estimateEnrich(ctx: Ctx, personIds: string[]) {
  requireAccess(ctx, "write");
  const people = await loadPeople(ctx.db, ctx.workspaceId, personIds);
  const n = people.filter(workable).length;
  return { people: n, credits: n };
}

async function insertJob(
  tx: DbOrTx,
  ctx: Ctx,
  kind: "ENRICH" | "LEADS",
  verify: boolean,
  rows: Omit<typeof results.$inferInsert, "jobId">[],
) {
  const id = newId("fej");
  const now = ctx.clock.now();
  const done = rows.filter((r) => r.pending === false).length;
  await tx.insert(jobs).values({ id, workspaceId: ctx.workspaceId, kind, verify, total: rows.length, done, createdAt: now });
  await bulkInsert(
    tx,
    results,
    rows.map((r) => ({ jobId: id, ...r })),
  );
  return id;
}

/** POST /finder/enrich → 202 with the QUEUED job. */
export async function startEnrich(ctx: Ctx, input: { personIds: string[]; verify: boolean }) {
  requireAccess(ctx, "write");
  const id = await withTransaction(ctx, async (tx) => {
    const people = await loadPeople(tx, ctx.workspaceId, input.personIds);
    const domains = [...new Set(people.flatMap((p) => (p.companyDomain ? [p.companyDomain] : [])))];
    const learned = await colleaguePatterns(tx, ctx.workspaceId, domains);
    for (const _ of people.filter(workable)) await useCredit(tx, ctx.workspaceId, ctx.clock.now());
    const rows = people.map((p, position) => {
      const candidates = candidatesFor(p, learned);
      const domain = candidates[0]?.split("@")[1] ?? p.companyDomain;
      const why = !p.companyDomain ? "no company domain" : "no name to build an address from";
      // Every row has the same keys (bulkInsert takes the columns from the first row).
      return candidates.length
        ? { subjectId: p.id, position, domain, candidates, pending: true, verificationStatus: "UNVERIFIED" as const, detail: null }
        : { subjectId: p.id, position, domain, candidates, pending: false, verificationStatus: "UNKNOWN" as const, detail: why };
    });
    return insertJob(tx, ctx, "ENRICH", input.verify, rows);
  });
  return getEnrichJob(ctx, id);
}

/** POST /leads verify: true — a LEADS job over the saved leads' own addresses. Returns its id. */
export async function startLeadVerification(ctx: Ctx, leadIds: string[]): Promise<string | null> {
  if (!leadIds.length) return null;
  const rows = await ctx.db
    .select({ id: leads.id, email: leads.email })
    .from(leads)
    .where(and(eq(leads.workspaceId, ctx.workspaceId), inArray(leads.id, [...new Set(leadIds)])));
  const order = new Map(leadIds.map((id, i) => [id, i]));
  const items = rows.map((l) => ({
    subjectId: l.id,
    position: order.get(l.id) ?? 0,
    domain: l.email.split("@")[1]?.toLowerCase() ?? null,
    candidates: [l.email.toLowerCase()],
  }));
  return insertJob(ctx.db, ctx, "LEADS", true, items);
}

function serializeJob(j: JobRow, rows: (typeof results.$inferSelect)[]) {
  const lead = j.kind === "LEADS";
  return {
    id: j.id,
    kind: j.kind,
    status: j.status,
    verify: j.verify,
    total: j.total,
    done: j.done,
    found: j.found,
    verified: j.verified,
    error: j.error,
    createdAt: j.createdAt.toISOString(),
    completedAt: j.completedAt?.toISOString() ?? null,
    results: rows.map((r) => ({
      personId: lead ? null : r.subjectId,
      leadId: lead ? r.subjectId : null,
      email: r.email,
      verificationStatus: r.verificationStatus,
      espClass: r.espClass,
      pending: r.pending,
      nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
      detail: r.detail,
    })),
  };
}
export type EnrichJobView = ReturnType<typeof serializeJob>;

async function findJob(db: DbOrTx, workspaceId: string, id: string): Promise<JobRow> {
  const [j] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.id, id)));
  if (!j) throw new NotFoundError("Enrichment job");
  return j;
}

export async function getEnrichJob(ctx: Ctx, id: string): Promise<EnrichJobView> {
  requireAccess(ctx, "read");
  const j = await findJob(ctx.db, ctx.workspaceId, id);
  const rows = await ctx.db.select().from(results).where(eq(results.jobId, id)).orderBy(asc(results.position));
  return serializeJob(j, rows);
}

/** POST …/cancel: a QUEUED or RUNNING job stops (its lease is dropped, so a runner's next write fails and it stops probing). */
export async function cancelEnrichJob(ctx: Ctx, id: string): Promise<EnrichJobView> {
  requireAccess(ctx, "write");
  await findJob(ctx.db, ctx.workspaceId, id);
  await ctx.db
    .update(jobs)
    .set({ status: "CANCELLED", leaseUntil: null, completedAt: ctx.clock.now() })
    .where(and(eq(jobs.id, id), sql`${jobs.status} in ('QUEUED', 'RUNNING')`));
  return getEnrichJob(ctx, id);
}
