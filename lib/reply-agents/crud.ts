import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentChunks, agentDocuments, agentWebsiteScans, campaigns, replyAgentCampaigns, replyAgents } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { AppError, NotFoundError } from "../errors";
import { newId } from "../ids";
import type { CreateAgentInput, PatchAgentInput } from "./schemas";

export type AgentRow = typeof replyAgents.$inferSelect;

/** The workspace's agent, or 404 "Reply agent not found" (another workspace's too, so ids of other workspaces are not revealed). */
export async function findAgent(db: DbOrTx, workspaceId: string, id: string): Promise<AgentRow> {
  const [a] = await db
    .select()
    .from(replyAgents)
    .where(and(eq(replyAgents.id, id), eq(replyAgents.workspaceId, workspaceId)));
  if (!a) throw new NotFoundError("Reply agent");
  return a;
}

/** The agent attached to a campaign (at most one), or null. */
export async function agentForCampaign(db: DbOrTx, workspaceId: string, campaignId: string): Promise<AgentRow | null> {
  const [row] = await db
    .select({ a: replyAgents })
    .from(replyAgentCampaigns)
    .innerJoin(replyAgents, eq(replyAgents.id, replyAgentCampaigns.agentId))
    .where(and(eq(replyAgentCampaigns.campaignId, campaignId), eq(replyAgents.workspaceId, workspaceId)));
  return row?.a ?? null;
}

/** The API's view of agents (its own fields plus campaignIds, documentCount and website), one query per relation. */
export async function agentViews(db: DbOrTx, rows: AgentRow[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [links, docs, scans, pages] = await Promise.all([
    db.select().from(replyAgentCampaigns).where(inArray(replyAgentCampaigns.agentId, ids)).orderBy(asc(replyAgentCampaigns.campaignId)),
    db
      .select({ agentId: agentDocuments.agentId, n: sql<number>`count(*)::int` })
      .from(agentDocuments)
      .where(inArray(agentDocuments.agentId, ids))
      .groupBy(agentDocuments.agentId),
    db
      .selectDistinctOn([agentWebsiteScans.agentId])
      .from(agentWebsiteScans)
      .where(inArray(agentWebsiteScans.agentId, ids))
      .orderBy(agentWebsiteScans.agentId, desc(agentWebsiteScans.seq)),
    db
      .select({ agentId: agentChunks.agentId, n: sql<number>`count(distinct ${agentChunks.source})::int` })
      .from(agentChunks)
      .where(and(inArray(agentChunks.agentId, ids), eq(agentChunks.sourceKind, "url")))
      .groupBy(agentChunks.agentId),
  ]);
  const docCount = new Map(docs.map((d) => [d.agentId, d.n]));
  const scanOf = new Map(scans.map((s) => [s.agentId, s]));
  const pageCount = new Map(pages.map((p) => [p.agentId, p.n]));
  return rows.map((a) => {
    const s = scanOf.get(a.id);
    return {
      id: a.id,
      name: a.name,
      companyName: a.companyName,
      companyDomain: a.companyDomain,
      tone: a.tone,
      additionalInfo: a.additionalInfo,
      autonomousReplies: a.autonomousReplies,
      followUpsEnabled: a.followUpsEnabled,
      followUpDays: a.followUpDays,
      campaignIds: links.filter((l) => l.agentId === a.id).map((l) => l.campaignId),
      documentCount: docCount.get(a.id) ?? 0,
      website: {
        domain: s?.domain ?? a.companyDomain ?? null,
        status: s?.status ?? null,
        pagesFound: s?.pagesFound ?? 0,
        pagesIndexed: pageCount.get(a.id) ?? 0,
      },
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  });
}
export type AgentView = Awaited<ReturnType<typeof agentViews>>[number];

export async function listAgents(ctx: Ctx) {
  requireAccess(ctx, "read");
  const rows = await ctx.db.select().from(replyAgents).where(eq(replyAgents.workspaceId, ctx.workspaceId)).orderBy(asc(replyAgents.seq));
  return { agents: await agentViews(ctx.db, rows) };
}

export async function getAgent(ctx: Ctx, id: string): Promise<AgentView> {
  requireAccess(ctx, "read");
  return (await agentViews(ctx.db, [await findAgent(ctx.db, ctx.workspaceId, id)]))[0];
}

/**
 * Attaches exactly `campaignIds` to the agent: each must be a campaign of the workspace (else 404
 * naming them, nothing written); a campaign another agent had moves to this one (one agent per campaign).
 */
async function setCampaigns(db: DbOrTx, workspaceId: string, agentId: string, campaignIds: string[]): Promise<void> {
  const wanted = [...new Set(campaignIds)];
  if (wanted.length) {
    const found = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.workspaceId, workspaceId), inArray(campaigns.id, wanted)));
    const missing = wanted.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw new AppError("NOT_FOUND", `Campaign not found: ${missing.join(", ")}`, { campaignIds: missing });
  }
  await db.delete(replyAgentCampaigns).where(eq(replyAgentCampaigns.agentId, agentId));
  if (!wanted.length) return;
  await db
    .insert(replyAgentCampaigns)
    .values(wanted.map((campaignId) => ({ agentId, campaignId })))
    .onConflictDoUpdate({ target: replyAgentCampaigns.campaignId, set: { agentId } });
}

function fieldsOf(input: PatchAgentInput) {
  const { campaignIds: _c, ...f } = input;
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

export async function createAgent(ctx: Ctx, input: CreateAgentInput): Promise<AgentView> {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const [a] = await tx
      .insert(replyAgents)
      .values({ ...fieldsOf(input), name: input.name, id: newId("agt"), workspaceId: ctx.workspaceId, createdAt: now, updatedAt: now })
      .returning();
    if (input.campaignIds) await setCampaigns(tx, ctx.workspaceId, a.id, input.campaignIds);
    return (await agentViews(tx, [a]))[0];
  });
}

export async function patchAgent(ctx: Ctx, id: string, input: PatchAgentInput): Promise<AgentView> {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findAgent(tx, ctx.workspaceId, id);
    const [a] = await tx
      .update(replyAgents)
      .set({ ...fieldsOf(input), updatedAt: ctx.clock.now() })
      .where(eq(replyAgents.id, id))
      .returning();
    if (input.campaignIds) await setCampaigns(tx, ctx.workspaceId, id, input.campaignIds);
    return (await agentViews(tx, [a]))[0];
  });
}

/** Deletes the agent with its documents, knowledge, crawls and campaign links (cascades). */
export async function deleteAgent(ctx: Ctx, id: string): Promise<{ deleted: true; id: string }> {
  requireAccess(ctx, "write");
  await findAgent(ctx.db, ctx.workspaceId, id);
  await ctx.db.delete(replyAgents).where(and(eq(replyAgents.id, id), eq(replyAgents.workspaceId, ctx.workspaceId)));
  return { deleted: true, id };
}
