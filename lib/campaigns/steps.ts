import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { campaignSteps, emails, stepAttachments } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import { findCampaign } from "./campaigns";
import type { createStepBody, patchStepBody, putStepsBody } from "./schemas";
import { checkBranches, findSubsequence } from "./subsequences";

export type StepRow = typeof campaignSteps.$inferSelect;

export function stepView(s: StepRow) {
  return {
    id: s.id,
    campaignId: s.campaignId,
    stepOrder: s.stepOrder,
    variantGroup: s.variantGroup || null,
    subject: s.subject,
    bodyTemplate: s.bodyTemplate,
    bodyHtmlTemplate: s.bodyHtmlTemplate,
    delayHoursAfterPrevious: s.delayHoursAfterPrevious,
    subsequenceId: s.subsequenceId,
    branches: s.branches,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * The subject is required on the first step of the main sequence (and of a subsequence with a thread of
 * its own); a follow-up's own subject is never used, it answers in the thread.
 */
function checkSubject(stepOrder: number, subject: string | null | undefined, field = "subject", ownThread = true) {
  if (stepOrder === 0 && ownThread && !subject?.trim()) throw ValidationError.field(field, "the first step (stepOrder 0) needs a subject");
}

/** The steps of one sequence of a campaign: the main one (null) or a subsequence. */
export const inSequence = (campaignId: string, subsequenceId: string | null | undefined): SQL =>
  and(
    eq(campaignSteps.campaignId, campaignId),
    subsequenceId ? eq(campaignSteps.subsequenceId, subsequenceId) : isNull(campaignSteps.subsequenceId),
  )!;

/** A subsequence named by a step write exists in the campaign; whether its first step needs a subject. */
async function sequenceOf(db: DbOrTx, campaignId: string, subsequenceId: string | null | undefined): Promise<{ ownThread: boolean }> {
  if (!subsequenceId) return { ownThread: true };
  const s = await findSubsequence(db, campaignId, subsequenceId, "subsequenceId");
  return { ownThread: s.threading === "new" };
}

export async function findStep(db: DbOrTx, workspaceId: string, campaignId: string, stepId: string): Promise<StepRow> {
  const [s] = await db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.id, stepId), eq(campaignSteps.campaignId, campaignId), eq(campaignSteps.workspaceId, workspaceId)));
  if (!s) throw new NotFoundError("Step");
  return s;
}

export async function stepSendCounts(db: DbOrTx, stepIds: string[]): Promise<Map<string, number>> {
  if (stepIds.length === 0) return new Map();
  const rows = await db
    .select({ stepId: emails.stepId, n: sql<number>`count(*)::int` })
    .from(emails)
    .where(inArray(emails.stepId, stepIds))
    .groupBy(emails.stepId);
  return new Map(rows.map((r) => [r.stepId!, r.n]));
}

/** Inline images are sent only while the body shows them: saving a body without its cid removes the image. */
export async function pruneInlineImages(db: DbOrTx, step: StepRow): Promise<number> {
  const atts = await db.select().from(stepAttachments).where(eq(stepAttachments.stepId, step.id));
  const body = `${step.bodyTemplate}\n${step.bodyHtmlTemplate ?? ""}`;
  const gone = atts.filter((a) => a.cid && !body.includes(`cid:${a.cid}`));
  if (gone.length)
    await db.delete(stepAttachments).where(
      inArray(
        stepAttachments.id,
        gone.map((a) => a.id),
      ),
    );
  return gone.length;
}

export async function listSteps(ctx: Ctx, campaignId: string, subsequenceId?: string) {
  requireAccess(ctx, "read");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  if (subsequenceId) await findSubsequence(ctx.db, campaignId, subsequenceId, "subsequenceId");
  const rows = await ctx.db
    .select()
    .from(campaignSteps)
    .where(inSequence(campaignId, subsequenceId))
    .orderBy(asc(campaignSteps.stepOrder), asc(campaignSteps.variantGroup));
  return { steps: rows.map(stepView) };
}

export async function createStep(ctx: Ctx, campaignId: string, input: z.infer<typeof createStepBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const { ownThread } = await sequenceOf(tx, campaignId, input.subsequenceId);
    const [{ max }] = await tx
      .select({ max: sql<number | null>`max(${campaignSteps.stepOrder})` })
      .from(campaignSteps)
      .where(inSequence(campaignId, input.subsequenceId));
    const stepOrder = input.stepOrder ?? (max === null ? 0 : max + 1);
    checkSubject(stepOrder, input.subject, "subject", ownThread);
    await checkBranches(tx, ctx.workspaceId, campaignId, input.branches ?? [], "branches", input.subsequenceId ?? null);
    const variantGroup = input.variantGroup?.trim() ?? "";
    const now = ctx.clock.now();
    const [row] = await tx
      .insert(campaignSteps)
      .values({
        id: newId("stp"),
        workspaceId: ctx.workspaceId,
        campaignId,
        stepOrder,
        variantGroup,
        subject: input.subject ?? null,
        bodyTemplate: input.bodyTemplate,
        bodyHtmlTemplate: input.bodyHtmlTemplate ?? null,
        delayHoursAfterPrevious: input.delayHoursAfterPrevious ?? null,
        subsequenceId: input.subsequenceId ?? null,
        branches: input.branches ?? [],
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row)
      throw new ConflictError(`Step ${stepOrder}${variantGroup ? ` variant ${variantGroup}` : ""} already exists; PATCH it instead`);
    return stepView(row);
  });
}

export async function patchStep(ctx: Ctx, campaignId: string, stepId: string, input: z.infer<typeof patchStepBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const cur = await findStep(tx, ctx.workspaceId, campaignId, stepId);
    const stepOrder = input.stepOrder ?? cur.stepOrder;
    const { ownThread } = await sequenceOf(tx, campaignId, cur.subsequenceId);
    checkSubject(stepOrder, input.subject === undefined ? cur.subject : input.subject, "subject", ownThread);
    if (input.branches) await checkBranches(tx, ctx.workspaceId, campaignId, input.branches, "branches", cur.subsequenceId);
    const set: Partial<StepRow> = { updatedAt: ctx.clock.now(), stepOrder };
    if (input.variantGroup !== undefined) set.variantGroup = input.variantGroup?.trim() ?? "";
    for (const f of ["subject", "bodyTemplate", "bodyHtmlTemplate", "delayHoursAfterPrevious", "branches"] as const)
      if (input[f] !== undefined) (set as Record<string, unknown>)[f] = input[f];
    const [row] = await tx
      .update(campaignSteps)
      .set(set)
      .where(eq(campaignSteps.id, stepId))
      .returning()
      .catch((e) => {
        if ((e as { cause?: { code?: string } }).cause?.code === "23505")
          throw new ConflictError("Another step already has that stepOrder and variantGroup");
        throw e;
      });
    await pruneInlineImages(tx, row);
    return stepView(row);
  });
}

export async function deleteStep(ctx: Ctx, campaignId: string, stepId: string) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const s = await findStep(tx, ctx.workspaceId, campaignId, stepId);
    const sent = (await stepSendCounts(tx, [s.id])).get(s.id) ?? 0;
    if (sent > 0) throw new ConflictError(`Step ${s.stepOrder} has already sent ${sent} email(s) and cannot be deleted; edit it instead`);
    await tx.delete(campaignSteps).where(eq(campaignSteps.id, s.id));
    return { deleted: true, id: s.id };
  });
}

/** The subjects and branch rules of a sequence's new steps, named by their place in the body. */
async function checkSteps(
  tx: DbOrTx,
  workspaceId: string,
  campaignId: string,
  steps: z.infer<typeof putStepsBody>["steps"],
  seq: string | null,
) {
  const { ownThread } = await sequenceOf(tx, campaignId, seq);
  for (const [i, s] of steps.entries()) {
    checkSubject(s.stepOrder, s.subject, `steps.${i}.subject`, ownThread);
    await checkBranches(tx, workspaceId, campaignId, s.branches ?? [], `steps.${i}.branches`, seq);
  }
}

/**
 * PUT /campaigns/<id>/steps: replaces one sequence (the main one, or `subsequenceId`'s). Steps match by
 * (stepOrder, variantGroup): matches are updated, new ones created, missing ones deleted — unless one
 * has sent (409, nothing changes).
 */
export async function replaceSteps(ctx: Ctx, campaignId: string, input: z.infer<typeof putStepsBody>) {
  requireAccess(ctx, "write");
  const key = (o: number, v: string | null | undefined) => `${o}\u0000${v?.trim() ?? ""}`;
  const seen = new Set<string>();
  input.steps.forEach((s, i) => {
    const k = key(s.stepOrder, s.variantGroup);
    if (seen.has(k))
      throw ValidationError.field(`steps.${i}`, `step ${s.stepOrder}${s.variantGroup ? ` variant ${s.variantGroup}` : ""} is listed twice`);
    seen.add(k);
  });
  const seq = input.subsequenceId ?? null;
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    await checkSteps(tx, ctx.workspaceId, campaignId, input.steps, seq);
    const existing = await tx.select().from(campaignSteps).where(inSequence(campaignId, seq));
    const byKey = new Map(existing.map((s) => [key(s.stepOrder, s.variantGroup), s]));
    const missing = existing.filter((s) => !seen.has(key(s.stepOrder, s.variantGroup)));
    const sent = await stepSendCounts(
      tx,
      missing.map((s) => s.id),
    );
    const blocked = missing.filter((s) => (sent.get(s.id) ?? 0) > 0);
    if (blocked.length) {
      throw new ConflictError(
        `Step(s) ${blocked.map((s) => `${s.stepOrder}${s.variantGroup ? s.variantGroup : ""}`).join(", ")} already sent ` +
          "and cannot be deleted; keep them in the sequence",
        {
          stepIds: blocked.map((s) => s.id),
        },
      );
    }
    if (missing.length)
      await tx.delete(campaignSteps).where(
        inArray(
          campaignSteps.id,
          missing.map((s) => s.id),
        ),
      );
    const now = ctx.clock.now();
    let created = 0;
    let updated = 0;
    for (const s of input.steps) {
      const values = {
        subject: s.subject ?? null,
        bodyTemplate: s.bodyTemplate,
        bodyHtmlTemplate: s.bodyHtmlTemplate ?? null,
        delayHoursAfterPrevious: s.delayHoursAfterPrevious ?? null,
        branches: s.branches ?? [],
        updatedAt: now,
      };
      const match = byKey.get(key(s.stepOrder, s.variantGroup));
      if (match) {
        const [row] = await tx.update(campaignSteps).set(values).where(eq(campaignSteps.id, match.id)).returning();
        await pruneInlineImages(tx, row);
        updated++;
      } else {
        await tx.insert(campaignSteps).values({
          ...values,
          id: newId("stp"),
          workspaceId: ctx.workspaceId,
          campaignId,
          subsequenceId: seq,
          stepOrder: s.stepOrder,
          variantGroup: s.variantGroup?.trim() ?? "",
          createdAt: now,
        });
        created++;
      }
    }
    const rows = await tx
      .select()
      .from(campaignSteps)
      .where(inSequence(campaignId, seq))
      .orderBy(asc(campaignSteps.stepOrder), asc(campaignSteps.variantGroup));
    return { created, updated, deleted: missing.length, steps: rows.map(stepView) };
  });
}
