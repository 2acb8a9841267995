import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { leadTags, leads, tags } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { newId } from "../ids";
import { recordTagDeleted, untagLeads } from "../leads/lead-events";

export const createTagBody = z.object({
  name: z.string().trim().min(1, "name is required").max(100),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, "color must be a hex colour like #3b82f6")
    .nullable()
    .optional(),
});
export const tagSchema = z.object({ id: z.string(), name: z.string(), color: z.string().nullable(), createdAt: z.string() });
export type TagView = z.infer<typeof tagSchema>;

function view(t: typeof tags.$inferSelect): TagView {
  return { id: t.id, name: t.name, color: t.color, createdAt: t.createdAt.toISOString() };
}

export async function listTags(ctx: Ctx): Promise<TagView[]> {
  requireAccess(ctx, "read");
  const rows = await ctx.db.select().from(tags).where(eq(tags.workspaceId, ctx.workspaceId)).orderBy(asc(tags.name));
  return rows.map(view);
}

async function findTagByName(db: DbOrTx, workspaceId: string, name: string) {
  const [t] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.workspaceId, workspaceId), sql`lower(${tags.name}) = lower(${name})`));
  return t;
}

export async function createTag(ctx: Ctx, input: z.infer<typeof createTagBody>): Promise<TagView> {
  requireAccess(ctx, "write");
  const [row] = await ctx.db
    .insert(tags)
    .values({ id: newId("tag"), workspaceId: ctx.workspaceId, name: input.name, color: input.color ?? null })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError(`A tag named "${input.name}" already exists`);
  return view(row);
}

export async function deleteTag(ctx: Ctx, id: string): Promise<{ deleted: true; id: string }> {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    // The tagged leads' timelines keep that it was taken off (its links go with the tag).
    await recordTagDeleted(tx, ctx.workspaceId, id, ctx.clock.now());
    const rows = await tx
      .delete(tags)
      .where(and(eq(tags.id, id), eq(tags.workspaceId, ctx.workspaceId)))
      .returning({ id: tags.id });
    if (rows.length === 0) throw new NotFoundError("Tag");
    return { deleted: true as const, id };
  });
}

/** A tag by id, or by name (created if new): the body of the attach routes. */
export async function resolveTag(ctx: Ctx, ref: { tagId?: string; name?: string }): Promise<TagView> {
  if (ref.tagId) {
    const [t] = await ctx.db
      .select()
      .from(tags)
      .where(and(eq(tags.id, ref.tagId), eq(tags.workspaceId, ctx.workspaceId)));
    if (!t) throw new NotFoundError("Tag");
    return view(t);
  }
  const name = ref.name!.trim();
  await ctx.db
    .insert(tags)
    .values({ id: newId("tag"), workspaceId: ctx.workspaceId, name })
    .onConflictDoNothing();
  return view((await findTagByName(ctx.db, ctx.workspaceId, name))!);
}

/** The lead must be one of the workspace's (404 otherwise). */
async function requireLead(db: DbOrTx, workspaceId: string, leadId: string): Promise<void> {
  const [lead] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.workspaceId, workspaceId)));
  if (!lead) throw new NotFoundError("Lead");
}

/**
 * Attaches a tag (by id, or by name: created if new) to a lead or a mailbox, in one transaction:
 * `requireTarget` throws when the thing is not the workspace's, `link` inserts the link row (nothing
 * when it exists: `attached: false`).
 */
export async function attachTag(
  ctx: Ctx,
  ref: { tagId?: string; name?: string },
  requireTarget: (tx: DbOrTx) => Promise<void>,
  link: (tx: DbOrTx, tagId: string) => Promise<unknown[]>,
): Promise<{ tag: TagView; attached: boolean }> {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx, c) => {
    await requireTarget(tx);
    const tag = await resolveTag(c, ref);
    return { tag, attached: (await link(tx, tag.id)).length > 0 };
  });
}

export async function attachTagToLead(ctx: Ctx, leadId: string, ref: { tagId?: string; name?: string }) {
  const { tag, attached } = await attachTag(
    ctx,
    ref,
    (tx) => requireLead(tx, ctx.workspaceId, leadId),
    (tx, tagId) =>
      tx
        .insert(leadTags)
        .values({ workspaceId: ctx.workspaceId, leadId, tagId, createdAt: ctx.clock.now() })
        .onConflictDoNothing()
        .returning(),
  );
  return { leadId, tag, attached };
}

export async function detachTagFromLead(ctx: Ctx, leadId: string, tagId: string) {
  requireAccess(ctx, "write");
  await requireLead(ctx.db, ctx.workspaceId, leadId);
  // The lead's timeline keeps that it was taken off (lead_events), written by the same statement.
  const rows = await untagLeads(ctx.db, ctx.workspaceId, tagId, [leadId], ctx.clock.now());
  if (rows.length === 0) throw new NotFoundError("Tag on this lead");
  return { leadId, tagId, removed: true };
}
