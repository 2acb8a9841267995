import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { campaignSteps, copyFatigueScans, copyFatigueSteps } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { aiProviderFor } from "../ai/resolve";
import { useCredit } from "../ai/settings";
import { findCampaign } from "../campaigns/campaigns";
import { bodyHashOf, explain, type FatigueReason } from "./rule";
import { type Complete, rewriteCopy } from "./rewrite";
import { type FatigueRow, scanCampaign } from "./scan";
import type { fatigueListSchema, fatigueRewriteSchema, fatigueStepSchema } from "./schemas";

type StepRow = typeof campaignSteps.$inferSelect;

function shown(step: StepRow, row: FatigueRow): z.infer<typeof fatigueStepSchema> {
  const reasons = row.reasons as FatigueReason[];
  const { reason, suggestion } = explain({ reasons, firstRate: row.firstRate, recentRate: row.recentRate }, row.leads);
  return {
    stepId: step.id,
    stepOrder: step.stepOrder,
    variantGroup: step.variantGroup || null,
    status: row.status,
    sends: row.sends,
    leads: row.leads,
    firstRate: row.firstRate,
    recentRate: row.recentRate,
    reasons,
    reason,
    suggestion,
    scannedAt: row.scannedAt.toISOString(),
  };
}

/**
 * The campaign's steps with their verdicts. A step never scanned, or whose copy changed since its last
 * scan, is scanned first, so the list always speaks of the copy the editor shows.
 */
async function listing(ctx: Ctx, campaignId: string, force: boolean): Promise<z.infer<typeof fatigueListSchema>> {
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const steps = await ctx.db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.campaignId, campaignId), eq(campaignSteps.workspaceId, ctx.workspaceId)))
    .orderBy(asc(campaignSteps.stepOrder), asc(campaignSteps.variantGroup));
  let rows = await ctx.db.select().from(copyFatigueSteps).where(eq(copyFatigueSteps.campaignId, campaignId));
  const byStep = new Map(rows.map((r) => [r.stepId, r]));
  if (force || steps.some((s) => byStep.get(s.id)?.bodyHash !== bodyHashOf(s))) {
    rows = await scanCampaign(ctx.db, ctx.workspaceId, campaignId, ctx.clock.now());
  }
  const fresh = new Map(rows.map((r) => [r.stepId, r]));
  const [scan] = await ctx.db.select().from(copyFatigueScans).where(eq(copyFatigueScans.campaignId, campaignId));
  return {
    steps: steps.flatMap((s) => (fresh.has(s.id) ? [shown(s, fresh.get(s.id)!)] : [])),
    lastScanAt: scan?.lastScanAt?.toISOString() ?? null,
  };
}

/** GET /campaigns/<id>/copy-fatigue. */
export async function getCopyFatigue(ctx: Ctx, campaignId: string) {
  requireAccess(ctx, "read");
  return listing(ctx, campaignId, false);
}

/** POST /campaigns/<id>/copy-fatigue/scan: scans now (the route answers 202 with the result). */
export async function scanCopyFatigue(ctx: Ctx, campaignId: string) {
  requireAccess(ctx, "write");
  return listing(ctx, campaignId, true);
}

/**
 * The AI provider's chat for one rewrite, its credit taken first (429 RATE_LIMITED, reason AI_CREDITS,
 * when none is left); null without an AI endpoint — the deterministic fallback costs no credit.
 */
async function creditedComplete(ctx: Ctx): Promise<Complete> {
  const p = await aiProviderFor(ctx.db, ctx.workspaceId);
  if (!p.complete) return null;
  await useCredit(ctx.db, ctx.workspaceId, ctx.clock.now());
  return p.complete;
}

async function stepAndRow(ctx: Ctx, campaignId: string, stepId: string) {
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const [step] = await ctx.db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.id, stepId), eq(campaignSteps.campaignId, campaignId), eq(campaignSteps.workspaceId, ctx.workspaceId)));
  if (!step) throw new NotFoundError("Step");
  const { steps } = await listing(ctx, campaignId, false);
  const [row] = await ctx.db.select().from(copyFatigueSteps).where(eq(copyFatigueSteps.stepId, stepId));
  return { step, row, shownRow: steps.find((s) => s.stepId === stepId)! };
}

/** Clears a FATIGUED flag: the step stays DISMISSED until its copy changes or it is flagged for a new reason. */
async function clearFlag(ctx: Ctx, row: FatigueRow): Promise<FatigueRow> {
  const [updated] = await ctx.db
    .update(copyFatigueSteps)
    .set({ status: "DISMISSED", dismissedReasons: row.reasons, dismissedAt: ctx.clock.now() })
    .where(eq(copyFatigueSteps.stepId, row.stepId))
    .returning();
  return updated;
}

/** POST …/copy-fatigue/<stepId>/dismiss: 409 for a step that is not flagged; a dismissed one is returned as it is. */
export async function dismissCopyFatigue(ctx: Ctx, campaignId: string, stepId: string) {
  requireAccess(ctx, "write");
  const { step, row, shownRow } = await stepAndRow(ctx, campaignId, stepId);
  if (row.status === "OK") throw new ConflictError("This step is not flagged for copy fatigue; there is nothing to dismiss");
  if (row.status === "DISMISSED") return shownRow;
  return shown(step, await clearFlag(ctx, row));
}

/**
 * POST …/copy-fatigue/<stepId>/apply: clears the flag (when set) and returns a rewrite of the step's
 * copy. The step itself is not changed — a PATCH of the step saves the rewrite.
 */
export async function applyCopyFatigue(ctx: Ctx, campaignId: string, stepId: string): Promise<z.infer<typeof fatigueRewriteSchema>> {
  requireAccess(ctx, "write");
  const { step, row, shownRow } = await stepAndRow(ctx, campaignId, stepId);
  const complete = await creditedComplete(ctx);
  const rewrite = await rewriteCopy(
    { subject: step.stepOrder === 0 ? step.subject : null, bodyTemplate: step.bodyTemplate },
    shownRow.reason,
    complete,
  );
  if (row.status === "FATIGUED") await clearFlag(ctx, row);
  const ai = rewrite.provider === "ai";
  return { stepId, ...rewrite, provider: ai ? "ai" : "fallback", generatedBy: ai ? "ai" : "template" };
}
