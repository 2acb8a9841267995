import { isIP } from "node:net";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { blacklistJobs, blacklistResults, domains } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { isDomainName, normalizeTarget, dnsblZones } from "../domains/dnsbl";
import { NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { envelope, offsetOf, pageQuery } from "../paging";

/**
 * Blacklist check jobs: POST starts a job over domains
 * and IP addresses, the blacklist-checks job (./blacklist-run) looks each one up in every zone, and
 * GET reads its progress and results.
 */

/** A job's target as stored in `blacklist_jobs.targets`. */
export interface BlacklistTarget {
  target: string;
  type: "domain" | "ip";
  /**
   * The workspace sending domain this target is, or whose A/MX records point to it. Only such targets
   * raise and resolve BLACKLISTED alerts: checking someone else's domain says nothing about ours.
   */
  sendingDomain?: string;
  /** A sending domain whose addresses the job still has to add (done when the job starts running). */
  expand?: boolean;
}

const MAX_TARGETS = 500;

const domainItem = z
  .string()
  .max(300)
  .transform(normalizeTarget)
  .refine(isDomainName, "is not a domain name (letters, digits and dashes in dot-separated labels)");
const ipItem = z
  .string()
  .max(60)
  .transform((s) => s.trim().toLowerCase())
  .refine((s) => isIP(s) === 4 || (isIP(s) === 6 && !s.includes(".")), "is not an IPv4 or IPv6 address");

export const blacklistCheckBody = z.object({
  domains: z.array(domainItem).max(MAX_TARGETS, `at most ${MAX_TARGETS} domains per check`).optional(),
  ips: z.array(ipItem).max(MAX_TARGETS, `at most ${MAX_TARGETS} addresses per check`).optional(),
  domainIds: z
    .array(z.string().max(100))
    .max(MAX_TARGETS, `at most ${MAX_TARGETS} domains per check`)
    .optional()
    .describe("Sending domains of the workspace, each checked with the addresses its A and MX records point to"),
});
export type BlacklistCheckInput = z.infer<typeof blacklistCheckBody>;

export const blacklistResultsQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  listed: z.enum(["true", "false"]).optional().describe("Only listed (true) or only not-listed (false) results"),
});

/** The workspace's domains the body names: by id (unknown ids are a 400 on `domainIds`), or all of them for an empty body. */
async function sendingDomains(ctx: Ctx, input: BlacklistCheckInput, empty: boolean) {
  const ids = [...new Set(input.domainIds ?? [])];
  if (!empty && ids.length === 0) return [];
  const where = empty ? eq(domains.workspaceId, ctx.workspaceId) : and(eq(domains.workspaceId, ctx.workspaceId), inArray(domains.id, ids));
  const rows = await ctx.db.select({ id: domains.id, domain: domains.domain }).from(domains).where(where).orderBy(asc(domains.domain));
  const unknown = ids.filter((id) => !rows.some((r) => r.id === id));
  if (unknown.length) throw ValidationError.field("domainIds", `unknown domain id(s): ${unknown.join(", ")}`);
  return rows;
}

/** The job's targets, each once: sending domains (to expand), named domains, named addresses. */
async function targetsOf(ctx: Ctx, input: BlacklistCheckInput): Promise<BlacklistTarget[]> {
  const empty = !input.domains?.length && !input.ips?.length && !input.domainIds?.length;
  const sending = await sendingDomains(ctx, input, empty);
  const named = [...new Set(input.domains ?? [])];
  // A named domain that is one of ours still raises alerts (it is checked as given, without its addresses).
  const ours = named.length
    ? await ctx.db
        .select({ domain: domains.domain })
        .from(domains)
        .where(and(eq(domains.workspaceId, ctx.workspaceId), inArray(domains.domain, named)))
    : [];
  const out = new Map<string, BlacklistTarget>();
  for (const d of sending) out.set(`domain:${d.domain}`, { target: d.domain, type: "domain", sendingDomain: d.domain, expand: true });
  for (const d of named) {
    const own = ours.some((o) => o.domain === d);
    if (!out.has(`domain:${d}`)) out.set(`domain:${d}`, { target: d, type: "domain", ...(own ? { sendingDomain: d } : {}) });
  }
  for (const ip of new Set(input.ips ?? [])) out.set(`ip:${ip}`, { target: ip, type: "ip" });
  return [...out.values()];
}

/** (target × zone) look-ups the targets need with the zones configured now. */
export function lookupCount(targets: BlacklistTarget[]): number {
  const zones = dnsblZones();
  return targets.reduce((n, t) => n + zones[t.type].length, 0);
}

/** POST /blacklist/bulk-check → 202 `{ jobId, status }`; the job runs in the background. */
export async function startBlacklistCheck(ctx: Ctx, input: BlacklistCheckInput) {
  requireAccess(ctx, "write");
  const targets = await targetsOf(ctx, input);
  if (targets.length === 0) {
    throw new ValidationError("Nothing to check: the workspace has no sending domains yet; pass domains or ips", {
      fieldErrors: {},
      formErrors: ["the workspace has no sending domains yet; pass domains or ips"],
    });
  }
  const [job] = await ctx.db
    .insert(blacklistJobs)
    .values({
      id: newId("blj"),
      workspaceId: ctx.workspaceId,
      status: "QUEUED",
      targets,
      total: lookupCount(targets),
      createdAt: ctx.clock.now(),
    })
    .returning({ id: blacklistJobs.id, status: blacklistJobs.status });
  return { jobId: job.id, status: job.status };
}

async function findJob(ctx: Ctx, id: string) {
  const [job] = await ctx.db
    .select()
    .from(blacklistJobs)
    .where(and(eq(blacklistJobs.id, id), eq(blacklistJobs.workspaceId, ctx.workspaceId)));
  if (!job) throw new NotFoundError("Blacklist check job");
  return job;
}

/** GET /blacklist/bulk-check/<jobId>: progress; `failedCount` counts look-ups a zone could not answer. */
export async function getBlacklistJob(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const job = await findJob(ctx, id);
  const [{ failed }] = await ctx.db
    .select({ failed: sql<number>`count(*)::int` })
    .from(blacklistResults)
    .where(and(eq(blacklistResults.jobId, id), eq(blacklistResults.listed, false), sql`${blacklistResults.answer} is not null`));
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    done: job.done,
    listedCount: job.listedCount,
    failedCount: failed,
    targets: job.targets.length,
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    completedAt: job.completedAt?.toISOString() ?? null,
  };
}

/** GET /blacklist/bulk-check/<jobId>/results: `{ results, page, limit, total }`, listed first, then by target and zone. */
export async function listBlacklistResults(ctx: Ctx, id: string, q: z.infer<typeof blacklistResultsQuery>) {
  requireAccess(ctx, "read");
  await findJob(ctx, id);
  const where = and(eq(blacklistResults.jobId, id), q.listed ? eq(blacklistResults.listed, q.listed === "true") : undefined);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select()
      .from(blacklistResults)
      .where(where)
      .orderBy(desc(blacklistResults.listed), asc(blacklistResults.type), asc(blacklistResults.target), asc(blacklistResults.zone))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(blacklistResults).where(where),
  ]);
  const results = rows.map((r) => ({
    target: r.target,
    type: r.type,
    zone: r.zone,
    listed: r.listed,
    answer: r.answer,
    failed: !r.listed && r.answer !== null,
    checkedAt: r.checkedAt.toISOString(),
  }));
  return envelope("results", results, n, q);
}
