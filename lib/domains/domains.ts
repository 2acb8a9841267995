import type { JobCtx } from "../ctx";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { domains, mailboxes } from "../../db/schema";
import { offsetOf, pageQuery } from "../paging";
import { requireAccess, type Ctx } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { claimStale } from "../jobs/stale-claims";
import { checkBlacklists, checkDkim, checkDmarc, checkMx, checkSpf } from "./checks";
import { blacklistAlerts, domainCheckVerdicts, domainDnsAlert, resolveDomainAlerts } from "./domain-alerts";

export const listDomainsQuery = pageQuery({ defaultLimit: 2000, maxLimit: 2000 });
export const domainIdsBody = z.object({ domainIds: z.array(z.string().max(100)).min(1).max(500, "at most 500 domains per call") });
export const patchDomainBody = z.object({
  dkimSelectors: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9._-]{1,63}$/, "a DKIM selector is letters, digits, dots, dashes or underscores"),
    )
    .max(20),
});

type DomainRow = typeof domains.$inferSelect;

function view(d: DomainRow, mailboxCount: number) {
  return {
    id: d.id,
    domain: d.domain,
    mailboxes: mailboxCount,
    spfStatus: d.spfStatus,
    dkimStatus: d.dkimStatus,
    dmarcStatus: d.dmarcStatus,
    mxStatus: d.mxStatus,
    blacklistStatus: d.blacklistStatus,
    checks: d.checks,
    dkimSelectors: d.dkimSelectors,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}
export type DomainView = ReturnType<typeof view>;

/** How many mailboxes each of these domains has (domains without any are left out). */
async function mailboxCounts(db: DbOrTx, rows: DomainRow[]): Promise<Map<string | null, number>> {
  if (rows.length === 0) return new Map();
  const ids = rows.map((r) => r.id);
  const counts = await db
    .select({ domainId: mailboxes.domainId, n: sql<number>`count(*)::int` })
    .from(mailboxes)
    .where(inArray(mailboxes.domainId, ids))
    .groupBy(mailboxes.domainId);
  return new Map(counts.map((c) => [c.domainId, c.n]));
}

async function views(db: DbOrTx, rows: DomainRow[]): Promise<DomainView[]> {
  const by = await mailboxCounts(db, rows);
  return rows.map((r) => view(r, by.get(r.id) ?? 0));
}

export async function listDomains(ctx: Ctx, q: z.infer<typeof listDomainsQuery>) {
  requireAccess(ctx, "read");
  const where = eq(domains.workspaceId, ctx.workspaceId);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(domains).where(where).orderBy(asc(domains.domain)).limit(q.limit).offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(domains).where(where),
  ]);
  return { rows: await views(ctx.db, rows), total: n };
}

async function findDomain(db: DbOrTx, workspaceId: string, id: string) {
  const [d] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.workspaceId, workspaceId)));
  return d;
}

export async function getDomain(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const d = await findDomain(ctx.db, ctx.workspaceId, id);
  if (!d) throw new NotFoundError("Domain");
  return (await views(ctx.db, [d]))[0];
}

export async function patchDomain(ctx: Ctx, id: string, input: z.infer<typeof patchDomainBody>) {
  requireAccess(ctx, "write");
  const [d] = await ctx.db
    .update(domains)
    .set({ dkimSelectors: [...new Set(input.dkimSelectors)] })
    .where(and(eq(domains.id, id), eq(domains.workspaceId, ctx.workspaceId)))
    .returning();
  if (!d) throw new NotFoundError("Domain");
  return (await views(ctx.db, [d]))[0];
}

/**
 * Reads SPF, DKIM, DMARC, MX and blocklists from real DNS (DNS_SERVERS) and stores each status with
 * its reason and the check time. What "right" means depends on the providers of the domain's mailboxes.
 * Raises or resolves the domain's DNS_FAILING and BLACKLISTED alerts (./domain-alerts).
 */
export async function runDomainCheck(db: DbOrTx, d: DomainRow, now: Date): Promise<DomainRow> {
  const boxes = await db
    .select({ provider: mailboxes.provider, smtpHost: mailboxes.smtpHost })
    .from(mailboxes)
    .where(eq(mailboxes.domainId, d.id));
  const providers = [...new Set(boxes.map((b) => b.provider).filter((p) => p !== "CUSTOM"))];
  const customSmtpHosts = [...new Set(boxes.filter((b) => b.provider === "CUSTOM").map((b) => b.smtpHost))];
  const [spf, dkim, dmarc, mx] = await Promise.all([
    checkSpf(d.domain, providers),
    checkDkim(d.domain, providers, d.dkimSelectors),
    checkDmarc(d.domain),
    checkMx(d.domain),
  ]);
  // Hosted providers' shared IPs say nothing about this domain; a domain's own servers do.
  const { verdicts, ...blacklist } = await checkBlacklists(d.domain, [...customSmtpHosts, ...(providers.length ? [] : mx.hosts)]);
  await domainDnsAlert(db, d, { spf, dkim, dmarc, mx }, now);
  await blacklistAlerts(db, d.workspaceId, domainCheckVerdicts(d.domain, verdicts), now);
  const [updated] = await db
    .update(domains)
    .set({
      spfStatus: spf.status,
      dkimStatus: dkim.status,
      dmarcStatus: dmarc.status,
      mxStatus: mx.status,
      blacklistStatus: blacklist.status,
      checks: { spf, dkim, dmarc, mx, blacklist },
      lastCheckedAt: now,
    })
    .where(eq(domains.id, d.id))
    .returning();
  return updated;
}

export async function checkDomain(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const d = await findDomain(ctx.db, ctx.workspaceId, id);
  if (!d) throw new NotFoundError("Domain");
  return (await views(ctx.db, [await runDomainCheck(ctx.db, d, ctx.clock.now())]))[0];
}

/** The workspace's domains among `ids` (each once), for the bulk verbs; the ids found in none are `notFound`. */
async function domainsAmong(ctx: Ctx, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select()
    .from(domains)
    .where(and(eq(domains.workspaceId, ctx.workspaceId), inArray(domains.id, unique)));
  const found = new Set(rows.map((r) => r.id));
  return { rows, notFound: unique.filter((i) => !found.has(i)) };
}

export async function bulkCheckDomains(ctx: Ctx, ids: string[]) {
  requireAccess(ctx, "write");
  const { rows, notFound } = await domainsAmong(ctx, ids);
  const checked: DomainRow[] = [];
  for (let i = 0; i < rows.length; i += 5) {
    checked.push(...(await Promise.all(rows.slice(i, i + 5).map((d) => runDomainCheck(ctx.db, d, ctx.clock.now())))));
  }
  return { checked: checked.length, notFound, domains: await views(ctx.db, checked) };
}

export async function deleteDomain(ctx: Ctx, id: string) {
  requireAccess(ctx, "write");
  const d = await findDomain(ctx.db, ctx.workspaceId, id);
  if (!d) throw new NotFoundError("Domain");
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(mailboxes).where(eq(mailboxes.domainId, id));
  if (n > 0) throw new ConflictError(`${d.domain} still has ${n} mailbox(es); delete them first`, { mailboxes: n });
  await ctx.db.delete(domains).where(eq(domains.id, id));
  await resolveDomainAlerts(ctx.db, ctx.workspaceId, [d.domain], ctx.clock.now());
  return { deleted: true, id };
}

export async function bulkDeleteDomains(ctx: Ctx, ids: string[]) {
  requireAccess(ctx, "write");
  const { rows, notFound } = await domainsAmong(ctx, ids);
  const inUse = await mailboxCounts(ctx.db, rows);
  const deletable = rows.filter((r) => !inUse.has(r.id)).map((r) => r.id);
  if (deletable.length) {
    await ctx.db.delete(domains).where(inArray(domains.id, deletable));
    const names = rows.filter((r) => deletable.includes(r.id)).map((r) => r.domain);
    await resolveDomainAlerts(ctx.db, ctx.workspaceId, names, ctx.clock.now());
  }
  return {
    deleted: deletable.length,
    notFound,
    conflicts: rows
      .filter((r) => inUse.has(r.id))
      .map((r) => ({ id: r.id, domain: r.domain, reason: `still has ${inUse.get(r.id)} mailbox(es)` })),
  };
}

/** Re-checks each domain once a day, and new domains soon after they appear. */
export async function runDomainChecks({ db, clock }: JobCtx) {
  const now = clock.now();
  const before = new Date(now.getTime() - 24 * 3600_000);
  const ids = await claimStale(db, { id: domains.id, checkedAt: domains.lastCheckedAt }, { now, before, limit: 20 });
  if (ids.length === 0) return { checked: 0 };
  const rows = await db.select().from(domains).where(inArray(domains.id, ids));
  for (const d of rows) await runDomainCheck(db, d, now);
  return { checked: rows.length };
}
