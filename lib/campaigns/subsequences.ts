import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaignSteps, campaignSubsequences, emails, memberships, tags } from "../../db/schema";
import { type Ctx, requireAccess, withTransaction } from "../ctx";
import { ConflictError, NotFoundError, ValidationError } from "../errors";
import { newId } from "../ids";
import type { BranchRule } from "../sending/branches";
import { findCampaign } from "./campaigns";
import type { patchSubsequenceBody, subsequenceBody } from "./schemas";

/**
 * Subsequences: named sequences inside a campaign, with their own steps (the step routes with
 * `subsequenceId`), entered by a lead when a branch rule says so. They share the campaign's window,
 * days, caps, pool and mailbox assignment; a lead is in one sequence at a time.
 */

type SubsequenceRow = typeof campaignSubsequences.$inferSelect;
type StepRow = typeof campaignSteps.$inferSelect;

/** A subsequence of the campaign, or 404 (`field` set: a 400 naming the field that points to it). */
export async function findSubsequence(db: DbOrTx, campaignId: string, id: string, field?: string): Promise<SubsequenceRow> {
  const [s] = await db
    .select()
    .from(campaignSubsequences)
    .where(and(eq(campaignSubsequences.id, id), eq(campaignSubsequences.campaignId, campaignId)));
  if (s) return s;
  if (field) throw ValidationError.field(field, `no subsequence ${id} in this campaign`);
  throw new NotFoundError("Subsequence");
}

/**
 * What branch rules point to exists: each subsequence in this campaign (and not the step's own, which a
 * lead is already in), each tag in the workspace, each user a member who is not a client.
 */
export async function checkBranches(
  db: DbOrTx,
  workspaceId: string,
  campaignId: string,
  rules: readonly BranchRule[],
  field: string,
  ownSubsequence: string | null,
): Promise<void> {
  for (const [i, r] of rules.entries()) {
    const at = `${field}.${i}.action`;
    const a = r.action;
    if (a.type === "subsequence") {
      if (a.subsequenceId === ownSubsequence) throw ValidationError.field(at, "a step cannot branch into its own subsequence");
      await findSubsequence(db, campaignId, a.subsequenceId, `${at}.subsequenceId`);
    } else if (a.type === "tag") {
      const [t] = await db
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.id, a.tagId), eq(tags.workspaceId, workspaceId)));
      if (!t) throw ValidationError.field(`${at}.tagId`, `no tag ${a.tagId} in this workspace`);
    } else if (a.type === "assign") {
      const [m] = await db
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.userId, a.userId), eq(memberships.workspaceId, workspaceId)));
      if (!m || m.role === "client") throw ValidationError.field(`${at}.userId`, "the user is not a member who can hold conversations");
    }
  }
}

function view(s: SubsequenceRow, steps: StepRow[]) {
  return {
    id: s.id,
    campaignId: s.campaignId,
    name: s.name,
    threading: s.threading,
    steps: steps
      .filter((x) => x.subsequenceId === s.id)
      .sort((a, b) => a.stepOrder - b.stepOrder || a.variantGroup.localeCompare(b.variantGroup))
      .map((x) => ({ id: x.id, stepOrder: x.stepOrder, variantGroup: x.variantGroup || null, subject: x.subject })),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

async function stepsOf(db: DbOrTx, ids: string[]): Promise<StepRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(campaignSteps).where(inArray(campaignSteps.subsequenceId, ids));
}

/** GET /campaigns/<id>/subsequences: each with its steps (id, order, variant, subject), oldest first. */
export async function listSubsequences(ctx: Ctx, campaignId: string) {
  requireAccess(ctx, "read");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const rows = await ctx.db
    .select()
    .from(campaignSubsequences)
    .where(eq(campaignSubsequences.campaignId, campaignId))
    .orderBy(asc(campaignSubsequences.createdAt), asc(campaignSubsequences.id));
  const steps = await stepsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { subsequences: rows.map((r) => view(r, steps)) };
}

export async function createSubsequence(ctx: Ctx, campaignId: string, input: z.infer<typeof subsequenceBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    const now = ctx.clock.now();
    const [row] = await tx
      .insert(campaignSubsequences)
      .values({
        id: newId("sub"),
        workspaceId: ctx.workspaceId,
        campaignId,
        name: input.name,
        threading: input.threading,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return view(row, []);
  });
}

export async function patchSubsequence(ctx: Ctx, campaignId: string, id: string, input: z.infer<typeof patchSubsequenceBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    await findSubsequence(tx, campaignId, id);
    const [row] = await tx
      .update(campaignSubsequences)
      .set({ ...input, updatedAt: ctx.clock.now() })
      .where(eq(campaignSubsequences.id, id))
      .returning();
    return view(row, await stepsOf(tx, [id]));
  });
}

/**
 * DELETE /campaigns/<id>/subsequences/<subId>: with its steps. 409 once one of its steps has sent, while
 * a lead is in it, or while a branch rule points to it (change those first).
 */
export async function deleteSubsequence(ctx: Ctx, campaignId: string, id: string) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    await findSubsequence(tx, campaignId, id);
    const own = await stepsOf(tx, [id]);
    const [{ sent }] = own.length
      ? await tx
          .select({ sent: sql<number>`count(*)::int` })
          .from(emails)
          .where(
            inArray(
              emails.stepId,
              own.map((s) => s.id),
            ),
          )
      : [{ sent: 0 }];
    if (sent > 0) throw new ConflictError(`The subsequence has already sent ${sent} email(s) and cannot be deleted`);
    const [{ inIt }] = await tx.select({ inIt: sql<number>`count(*)::int` }).from(campaignLeads).where(eq(campaignLeads.subsequenceId, id));
    if (inIt > 0) throw new ConflictError(`${inIt} lead(s) are in the subsequence; it cannot be deleted`);
    const pointing = await tx
      .select({ id: campaignSteps.id, stepOrder: campaignSteps.stepOrder })
      .from(campaignSteps)
      .where(
        and(
          eq(campaignSteps.campaignId, campaignId),
          sql`${campaignSteps.branches} @> ${JSON.stringify([{ action: { subsequenceId: id } }])}::jsonb`,
        ),
      );
    if (pointing.length)
      throw new ConflictError("Branch rules lead into the subsequence; change them first", { stepIds: pointing.map((s) => s.id) });
    await tx.delete(campaignSubsequences).where(eq(campaignSubsequences.id, id));
    return { deleted: true as const, id };
  });
}
