import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentWebsitePages, agentWebsiteScans } from "../../db/schema";
import { mapLimit } from "../concurrency";
import type { JobCtx } from "../ctx";
import { agentEnv } from "../env";
import { idSource } from "../ids";
import { leasedJobs } from "../jobs/leased";
import { fetchPage, loadRobots, type PageResult, sameSiteUrl } from "./page";

/**
 * The website-scans job (inngest/functions/agent-website-scans.ts): crawls a queued scan from its start
 * URL through the SSRF-safe client, breadth first, on the start URL's site only, pages robots.txt
 * allows, at most `max_pages` pages and AGENT_CRAWL_MAX_S seconds (default 300) from its start. Each
 * run fetches up to PAGES_PER_RUN pages under the scan's lease and records progress; the next run goes
 * on, so a worker that dies leaves the rest to the next one.
 */
const LEASE_MS = 60_000;
const PAGES_PER_RUN = 24;
const CONCURRENCY = 4;

export function crawlMaxMs(): number {
  return agentEnv.crawlMaxS * 1000;
}

type Scan = typeof agentWebsiteScans.$inferSelect;
const jobs = leasedJobs(agentWebsiteScans, LEASE_MS);

function pageUpdate(r: PageResult, now: Date): Partial<typeof agentWebsitePages.$inferInsert> {
  switch (r.kind) {
    case "page":
      return r.text
        ? { status: "FETCHED", title: r.title, text: r.text, fetchedAt: now }
        : { status: "SKIPPED", title: r.title, error: "no text" };
    case "redirect":
      return { status: "SKIPPED", error: `redirects to ${r.location}`, fetchedAt: now };
    default:
      return { status: r.kind === "skipped" ? "SKIPPED" : "FAILED", error: r.reason, fetchedAt: now };
  }
}

/** Counts of the scan's pages: found (all rows) and fetched (tried, whatever came of it). */
async function counts(db: DbOrTx, scanId: string) {
  const [c] = await db
    .select({
      found: sql<number>`count(*)::int`,
      fetched: sql<number>`(count(*) filter (where ${agentWebsitePages.status} <> 'FOUND'))::int`,
    })
    .from(agentWebsitePages)
    .where(eq(agentWebsitePages.scanId, scanId));
  return { pagesFound: c?.found ?? 0, pagesFetched: c?.fetched ?? 0 };
}

/** Records one batch's pages and the links they found (up to max_pages), only while the lease is ours. */
async function record(db: DbOrTx, scan: Scan, results: { id: string; r: PageResult }[], links: string[], now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await jobs.whileHeld(tx, scan, { leaseUntil: new Date(now.getTime() + LEASE_MS) }))) return false;
    for (const { id, r } of results) await tx.update(agentWebsitePages).set(pageUpdate(r, now)).where(eq(agentWebsitePages.id, id));
    const { pagesFound } = await counts(tx, scan.id);
    const room = scan.maxPages - pagesFound;
    if (room > 0 && links.length) {
      const known = await tx
        .select({ url: agentWebsitePages.url })
        .from(agentWebsitePages)
        .where(and(eq(agentWebsitePages.scanId, scan.id), inArray(agentWebsitePages.url, links)));
      const fresh = [...new Set(links)].filter((l) => !known.some((k) => k.url === l)).slice(0, room);
      const id = idSource("agp", fresh.length);
      if (fresh.length) {
        await tx
          .insert(agentWebsitePages)
          .values(fresh.map((url) => ({ id: id(), scanId: scan.id, agentId: scan.agentId, url })))
          .onConflictDoNothing();
      }
    }
    await jobs.whileHeld(tx, scan, await counts(tx, scan.id));
    return true;
  });
}

async function finish(db: DbOrTx, scan: Scan, now: Date, error: string | null) {
  // Pages left unfetched when the time ran out are shown as skipped.
  await db
    .update(agentWebsitePages)
    .set({ status: "SKIPPED", error: "crawl time limit reached" })
    .where(and(eq(agentWebsitePages.scanId, scan.id), eq(agentWebsitePages.status, "FOUND")));
  await jobs.whileHeld(db, scan, { ...(await counts(db, scan.id)), status: "COMPLETED", completedAt: now, error, leaseUntil: null });
}

/** One run's share of a scan: up to PAGES_PER_RUN pages, CONCURRENCY at a time. */
async function crawlStep(ctx: JobCtx, scan: Scan): Promise<{ fetched: number; status: string }> {
  const now = ctx.clock.now();
  if (scan.status === "QUEUED") await jobs.whileHeld(ctx.db, scan, { status: "RUNNING", startedAt: now });
  const started = scan.startedAt ?? now;
  if (now.getTime() - started.getTime() > crawlMaxMs()) {
    await finish(ctx.db, scan, now, `stopped after the crawl time limit of ${crawlMaxMs() / 1000} s`);
    return { fetched: 0, status: "COMPLETED" };
  }
  const start = new URL(scan.startUrl);
  const allowed = await loadRobots(start.origin);
  let fetched = 0;
  while (fetched < PAGES_PER_RUN) {
    const batch = await ctx.db
      .select({ id: agentWebsitePages.id, url: agentWebsitePages.url })
      .from(agentWebsitePages)
      .where(and(eq(agentWebsitePages.scanId, scan.id), eq(agentWebsitePages.status, "FOUND")))
      .orderBy(asc(agentWebsitePages.seq))
      .limit(Math.min(CONCURRENCY, PAGES_PER_RUN - fetched));
    if (!batch.length) break;
    const results = await mapLimit(batch, CONCURRENCY, async (p) => ({
      id: p.id,
      r: allowed(p.url) ? await fetchPage(p.url) : ({ kind: "skipped", reason: "robots.txt disallows this page" } as PageResult),
    }));
    const links = results
      .flatMap(({ r }) => (r.kind === "page" ? r.links : r.kind === "redirect" ? [r.location] : []))
      .map((l) => sameSiteUrl(l, start, scan.domain))
      .filter((l): l is string => l !== null && allowed(l));
    if (!(await record(ctx.db, scan, results, links, ctx.clock.now()))) return { fetched, status: "LOST_LEASE" };
    fetched += batch.length;
  }
  const [left] = await ctx.db
    .select({ id: agentWebsitePages.id })
    .from(agentWebsitePages)
    .where(and(eq(agentWebsitePages.scanId, scan.id), eq(agentWebsitePages.status, "FOUND")))
    .limit(1);
  if (!left) {
    await finish(ctx.db, scan, ctx.clock.now(), null);
    return { fetched, status: "COMPLETED" };
  }
  // The lease is given back: the next run (this worker's or another's) takes the scan on.
  await jobs.whileHeld(ctx.db, scan, { leaseUntil: null });
  return { fetched, status: "RUNNING" };
}

/** The job's run: the oldest open scan whose lease is free gets one step. */
export async function runWebsiteScans(ctx: JobCtx): Promise<Record<string, unknown> | undefined> {
  const scan = await jobs.claim(ctx.db, ctx.clock.now());
  if (!scan) return undefined;
  try {
    return { scanId: scan.id, ...(await crawlStep(ctx, scan)) };
  } catch (e) {
    ctx.log.error("website scan failed", { scanId: scan.id, error: (e as Error).message });
    await jobs.whileHeld(ctx.db, scan, { status: "FAILED", error: (e as Error).message, completedAt: ctx.clock.now(), leaseUntil: null });
    return { scanId: scan.id, status: "FAILED" };
  }
}
