import { and, asc, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, leads, mailboxes } from "../../db/schema";
import { offsetOf } from "../paging";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { removeLeadsFromCampaign } from "../leads/lead-events";
import { getLeadViews } from "../leads/read-leads";
import { suppressedAmong } from "../suppressions/check";
import { pickMailbox } from "./assign-mailbox";
import { spamClasses } from "./placement-spam";
import { findCampaign } from "./campaigns";
import { canSend, poolMailboxes } from "./eligibility";
import type { listCampaignLeadsQuery } from "./schemas";

/** Leads per pool mailbox in this campaign (the load that assignment balances). */
export async function loadByMailbox(db: DbOrTx, campaignId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ mailboxId: campaignLeads.mailboxId, n: sql<number>`count(*)::int` })
    .from(campaignLeads)
    .where(and(eq(campaignLeads.campaignId, campaignId), isNotNull(campaignLeads.mailboxId)))
    .groupBy(campaignLeads.mailboxId);
  return new Map(rows.map((r) => [r.mailboxId!, r.n]));
}

/**
 * POST /campaigns/<id>/leads: adds leads and gives each a mailbox from the pool. Results per
 * lead: assigned, suppressed (not added), no_eligible_mailbox / seg_blocked (added, unassigned),
 * error (not added: no such lead). A lead already in the campaign keeps its row and mailbox.
 */
export async function addLeadsToCampaign(ctx: Ctx, campaignId: string, leadIds: string[]) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const c = await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const unique = [...new Set(leadIds)];
    const found = await tx
      .select()
      .from(leads)
      .where(and(eq(leads.workspaceId, ctx.workspaceId), inArray(leads.id, unique)));
    const byId = new Map(found.map((l) => [l.id, l]));
    const suppressed = await suppressedAmong(
      tx,
      ctx.workspaceId,
      found.map((l) => l.email),
    );
    const already = new Map(
      (
        await tx
          .select({ leadId: campaignLeads.leadId, mailboxId: campaignLeads.mailboxId })
          .from(campaignLeads)
          .where(and(eq(campaignLeads.campaignId, c.id), inArray(campaignLeads.leadId, unique)))
      ).map((r) => [r.leadId, r.mailboxId]),
    );
    const eligible = (await poolMailboxes(tx, c.id)).filter(canSend);
    const spam =
      c.espMatching === "PREFER"
        ? await spamClasses(
            tx,
            eligible.map((m) => m.id),
          )
        : undefined;
    const load = await loadByMailbox(tx, c.id);
    const now = ctx.clock.now();
    const results: { leadId: string; email: string | null; result: string; mailboxId: string | null; error?: string }[] = [];
    const rows: (typeof campaignLeads.$inferInsert)[] = [];
    for (const id of leadIds) {
      const lead = byId.get(id);
      if (!lead) {
        results.push({ leadId: id, email: null, result: "error", mailboxId: null, error: "No such lead in this workspace" });
        continue;
      }
      if (already.has(id)) {
        const mailboxId = already.get(id) ?? null;
        results.push({ leadId: id, email: lead.email, result: mailboxId ? "assigned" : "no_eligible_mailbox", mailboxId });
        continue;
      }
      if (suppressed.has(lead.email.toLowerCase())) {
        results.push({ leadId: id, email: lead.email, result: "suppressed", mailboxId: null });
        continue;
      }
      const pick = pickMailbox(eligible, load, c.espMatching, lead.espClass, spam);
      results.push({ leadId: id, email: lead.email, result: pick.result, mailboxId: pick.mailboxId });
      rows.push({ workspaceId: ctx.workspaceId, campaignId: c.id, leadId: id, mailboxId: pick.mailboxId, addedAt: now });
      already.set(id, pick.mailboxId);
    }
    if (rows.length) await tx.insert(campaignLeads).values(rows).onConflictDoNothing();
    return { results, added: rows.length };
  });
}

export async function listCampaignLeads(ctx: Ctx, campaignId: string, q: z.infer<typeof listCampaignLeadsQuery>) {
  requireAccess(ctx, "read");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const where = eq(campaignLeads.campaignId, campaignId);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select({ cl: campaignLeads, mailboxEmail: mailboxes.email })
      .from(campaignLeads)
      .leftJoin(mailboxes, eq(mailboxes.id, campaignLeads.mailboxId))
      .where(where)
      .orderBy(asc(campaignLeads.seq))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(campaignLeads).where(where),
  ]);
  const views = new Map(
    (
      await getLeadViews(
        ctx.db,
        ctx.workspaceId,
        rows.map((r) => r.cl.leadId),
      )
    ).map((l) => [l.id, l]),
  );
  return {
    rows: rows.map(({ cl, mailboxEmail }) => ({
      ...views.get(cl.leadId)!,
      leadId: cl.leadId,
      mailboxId: cl.mailboxId,
      mailboxEmail,
      campaignStatus: cl.status,
      nextStepOrder: cl.nextStepOrder,
      nextSendAt: cl.nextSendAt?.toISOString() ?? null,
      sequence: cl.subsequenceId ?? "main",
      pausedUntil: cl.pausedUntil?.toISOString() ?? null,
      pauseReason: cl.pauseReason,
      firstEmailedAt: cl.firstEmailedAt?.toISOString() ?? null,
      addedAt: cl.addedAt.toISOString(),
    })),
    total: n,
  };
}

export async function removeLeads(ctx: Ctx, campaignId: string, leadIds: string[]) {
  requireAccess(ctx, "write");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const unique = [...new Set(leadIds)];
  // The lead's timeline keeps that it left (lead_events), written by the same statement.
  const gone = await removeLeadsFromCampaign(ctx.db, campaignId, unique, ctx.clock.now());
  const removed = new Set(gone);
  return { removed: gone.length, notInCampaign: unique.filter((i) => !removed.has(i)) };
}

export async function removeLead(ctx: Ctx, campaignId: string, leadId: string) {
  const r = await removeLeads(ctx, campaignId, [leadId]);
  if (r.removed === 0) throw new NotFoundError("Lead in this campaign");
  return { removed: true, leadId };
}

export const REASSIGN_BATCH = 1000;

/**
 * POST /campaigns/<id>/leads/reassign: moves only leads this campaign has not emailed yet;
 * a lead already in conversation keeps its mailbox. `all: true` takes the leads that need it —
 * unassigned, or on a mailbox that left the pool or cannot send — 1,000 per call, `more` when others remain.
 */
export async function reassignLeads(ctx: Ctx, campaignId: string, input: { leadIds?: string[]; all?: boolean }) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const c = await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const pool = await poolMailboxes(tx, c.id);
    const eligible = pool.filter(canSend);
    const eligibleIds = eligible.map((m) => m.id);
    const spam = c.espMatching === "PREFER" ? await spamClasses(tx, eligibleIds) : undefined;
    let targets: { leadId: string; mailboxId: string | null; firstEmailedAt: Date | null; espClass: string }[];
    let more = false;
    let notInCampaign: string[] = [];
    const base = tx
      .select({
        leadId: campaignLeads.leadId,
        mailboxId: campaignLeads.mailboxId,
        firstEmailedAt: campaignLeads.firstEmailedAt,
        espClass: leads.espClass,
      })
      .from(campaignLeads)
      .innerJoin(leads, eq(leads.id, campaignLeads.leadId));
    if (input.all) {
      const needs = and(
        eq(campaignLeads.campaignId, c.id),
        eq(campaignLeads.status, "ACTIVE"),
        isNull(campaignLeads.firstEmailedAt),
        eligibleIds.length
          ? sql`(${campaignLeads.mailboxId} is null or ${notInArray(campaignLeads.mailboxId, eligibleIds)})`
          : isNull(campaignLeads.mailboxId),
      );
      const rows = await base
        .where(needs)
        .orderBy(asc(campaignLeads.seq))
        .limit(REASSIGN_BATCH + 1);
      more = rows.length > REASSIGN_BATCH;
      targets = rows.slice(0, REASSIGN_BATCH);
    } else {
      const unique = [...new Set(input.leadIds)];
      targets = await base.where(and(eq(campaignLeads.campaignId, c.id), inArray(campaignLeads.leadId, unique)));
      const present = new Set(targets.map((t) => t.leadId));
      notInCampaign = unique.filter((i) => !present.has(i));
    }
    const load = await loadByMailbox(tx, c.id);
    let reassigned = 0;
    let leftUnassigned = 0;
    let skippedAlreadyEmailed = 0;
    let unchanged = 0;
    for (const t of targets) {
      if (t.firstEmailedAt) {
        skippedAlreadyEmailed++;
        continue;
      }
      if (t.mailboxId) load.set(t.mailboxId, Math.max(0, (load.get(t.mailboxId) ?? 1) - 1));
      const pick = pickMailbox(eligible, load, c.espMatching, t.espClass, spam);
      if (!pick.mailboxId) {
        leftUnassigned++;
        if (t.mailboxId)
          await tx
            .update(campaignLeads)
            .set({ mailboxId: null })
            .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, t.leadId)));
        continue;
      }
      if (pick.mailboxId === t.mailboxId) {
        unchanged++;
        continue;
      }
      await tx
        .update(campaignLeads)
        .set({ mailboxId: pick.mailboxId })
        .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, t.leadId)));
      reassigned++;
    }
    return { reassigned, leftUnassigned, skippedAlreadyEmailed, unchanged, notInCampaign, more };
  });
}
