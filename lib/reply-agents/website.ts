import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { agentWebsitePages, agentWebsiteScans } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ValidationError } from "../errors";
import { newId } from "../ids";
import { checkOutboundUrl } from "../net/ssrf";
import { findAgent } from "./crud";
import { addKnowledge } from "./knowledge";
import { siteOf } from "./page";
import type { indexBody, scanBody } from "./schemas";

/** Default pages per crawl when `maxPages` is not given (the most is 200). */
export const DEFAULT_MAX_PAGES = 50;

async function latestScan(db: DbOrTx, agentId: string) {
  const [s] = await db
    .select()
    .from(agentWebsiteScans)
    .where(eq(agentWebsiteScans.agentId, agentId))
    .orderBy(desc(agentWebsiteScans.seq))
    .limit(1);
  return s;
}

/** The latest crawl with its pages in the order found (every field null and no pages before the first scan). */
async function scanView(db: DbOrTx, agentId: string) {
  const s = await latestScan(db, agentId);
  const pages = s
    ? await db
        .select({ url: agentWebsitePages.url, title: agentWebsitePages.title, status: agentWebsitePages.status })
        .from(agentWebsitePages)
        .where(eq(agentWebsitePages.scanId, s.id))
        .orderBy(asc(agentWebsitePages.seq))
    : [];
  return {
    id: s?.id ?? null,
    url: s?.startUrl ?? null,
    domain: s?.domain ?? null,
    status: s?.status ?? null,
    maxPages: s?.maxPages ?? null,
    pagesFound: s?.pagesFound ?? 0,
    pagesFetched: s?.pagesFetched ?? 0,
    error: s?.error ?? null,
    createdAt: s?.createdAt.toISOString() ?? null,
    completedAt: s?.completedAt?.toISOString() ?? null,
    pages,
  };
}

export async function getScan(ctx: Ctx, agentId: string) {
  requireAccess(ctx, "read");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  return scanView(ctx.db, agentId);
}

/**
 * Queues a crawl from `url` (202; the website-scans job does the work). A URL the SSRF guard refuses
 * (not http(s), private or reserved address unless OUTBOUND_ALLOW_HOSTS lists it) is 400 on `url`.
 * A crawl still running for the agent is cancelled: the new one replaces it.
 */
export async function startScan(ctx: Ctx, agentId: string, input: z.infer<typeof scanBody>) {
  requireAccess(ctx, "write");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const raw = /^[a-z][a-z0-9+.-]*:\/\//i.test(input.url) ? input.url : `https://${input.url}`;
  const check = await checkOutboundUrl(raw);
  if (!check.ok) throw ValidationError.field("url", check.reason);
  const start = check.url;
  start.hash = "";
  return withTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    await tx
      .update(agentWebsiteScans)
      .set({ status: "CANCELLED", leaseUntil: null, completedAt: now })
      .where(and(eq(agentWebsiteScans.agentId, agentId), inArray(agentWebsiteScans.status, ["QUEUED", "RUNNING"])));
    const id = newId("ags");
    await tx.insert(agentWebsiteScans).values({
      id,
      workspaceId: ctx.workspaceId,
      agentId,
      startUrl: start.toString(),
      domain: siteOf(start),
      maxPages: input.maxPages ?? DEFAULT_MAX_PAGES,
      pagesFound: 1,
      createdAt: now,
    });
    await tx.insert(agentWebsitePages).values({ id: newId("agp"), scanId: id, agentId, url: start.toString() });
    return scanView(tx, agentId);
  });
}

/**
 * Adds fetched pages of the latest crawl to the knowledge (all of them when `urls` is omitted): each
 * page's readable text is chunked (a page indexed again replaces its chunks) and marked INDEXED. URLs
 * that are not fetched pages of that crawl come back in `skipped`.
 */
export async function indexPages(ctx: Ctx, agentId: string, input: z.infer<typeof indexBody>) {
  requireAccess(ctx, "write");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const scan = await latestScan(ctx.db, agentId);
  if (!scan) throw ValidationError.field("urls", "no website scan yet: POST …/website/scan first");
  const pages = await ctx.db
    .select()
    .from(agentWebsitePages)
    .where(
      and(
        eq(agentWebsitePages.scanId, scan.id),
        inArray(agentWebsitePages.status, ["FETCHED", "INDEXED"]),
        input.urls ? inArray(agentWebsitePages.url, input.urls) : sql`true`,
      ),
    )
    .orderBy(asc(agentWebsitePages.seq));
  let chunks = 0;
  for (const p of pages) {
    await withTransaction(ctx, async (tx) => {
      const source = { workspaceId: ctx.workspaceId, agentId, kind: "url" as const, source: p.url, title: p.title, text: p.text ?? "" };
      chunks += await addKnowledge(tx, source, ctx.clock.now());
      await tx.update(agentWebsitePages).set({ status: "INDEXED" }).where(eq(agentWebsitePages.id, p.id));
    });
  }
  const done = new Set(pages.map((p) => p.url));
  return { indexed: pages.length, chunks, skipped: (input.urls ?? []).filter((u) => !done.has(u)) };
}
