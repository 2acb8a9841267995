import { and, asc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { leadTags, mailboxTags, tags } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { createTagBody, tagSchema, type TagView } from "./tags";

/** PATCH /tags/<tagId>: rename and/or recolour; only sent fields change, `color: null` clears the colour. */
export const updateTagBody = z
  .object({ name: createTagBody.shape.name.optional(), color: createTagBody.shape.color })
  .strict()
  .refine((o) => o.name !== undefined || o.color !== undefined, "send name or color");
export type UpdateTagInput = z.infer<typeof updateTagBody>;

/** A tag as the list shows it: with how many leads and mailboxes carry it (what deleting it detaches). */
export const tagWithCountsSchema = tagSchema.extend({
  leadCount: z.number().int().describe("Leads carrying the tag"),
  mailboxCount: z.number().int().describe("Mailboxes carrying the tag"),
});
export type TagWithCounts = z.infer<typeof tagWithCountsSchema>;

/** Every tag of the workspace by name, each with its lead and mailbox counts (two grouped counts, not one per tag). */
export async function listTagsWithCounts(ctx: Ctx): Promise<TagWithCounts[]> {
  requireAccess(ctx, "read");
  const ws = ctx.workspaceId;
  const [rows, byLead, byMailbox] = await Promise.all([
    ctx.db.select().from(tags).where(eq(tags.workspaceId, ws)).orderBy(asc(tags.name)),
    ctx.db
      .select({ tagId: leadTags.tagId, n: sql<number>`count(*)::int` })
      .from(leadTags)
      .where(eq(leadTags.workspaceId, ws))
      .groupBy(leadTags.tagId),
    ctx.db
      .select({ tagId: mailboxTags.tagId, n: sql<number>`count(*)::int` })
      .from(mailboxTags)
      .where(eq(mailboxTags.workspaceId, ws))
      .groupBy(mailboxTags.tagId),
  ]);
  const leadsOf = new Map(byLead.map((r) => [r.tagId, r.n]));
  const mailboxesOf = new Map(byMailbox.map((r) => [r.tagId, r.n]));
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    color: t.color,
    createdAt: t.createdAt.toISOString(),
    leadCount: leadsOf.get(t.id) ?? 0,
    mailboxCount: mailboxesOf.get(t.id) ?? 0,
  }));
}

/**
 * Renames and/or recolours a tag. A name another tag of the workspace has (case-insensitively) is a
 * 409; the links to leads and mailboxes stay, so every lead and mailbox shows the new name at once.
 */
export async function updateTag(ctx: Ctx, id: string, input: UpdateTagInput): Promise<TagView> {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const where = and(eq(tags.id, id), eq(tags.workspaceId, ctx.workspaceId));
    const [current] = await tx.select().from(tags).where(where).for("update");
    if (!current) throw new NotFoundError("Tag");
    if (input.name !== undefined) {
      const [clash] = await tx
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.workspaceId, ctx.workspaceId), ne(tags.id, id), sql`lower(${tags.name}) = lower(${input.name})`));
      if (clash) throw new ConflictError(`A tag named "${input.name}" already exists`);
    }
    const [row] = await tx
      .update(tags)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
      })
      .where(where)
      .returning();
    return { id: row.id, name: row.name, color: row.color, createdAt: row.createdAt.toISOString() };
  });
}
