import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { resolveTag } from "./tags";
import { untagLeads } from "../leads/lead-events";

/** The ids among `ids` that are leads of the workspace. */
async function existingLeads(db: DbOrTx, workspaceId: string, ids: string[]): Promise<Set<string>> {
  const rows = await selectRows<{ id: string }>(db, sql`select id from leads where workspace_id = ${workspaceId} and id = ${anyOf(ids)}`);
  return new Set(rows.map((r) => r.id));
}

/**
 * POST /leads/bulk-tag: attaches one tag (by id, or by name: created if new) to up to 1,000 leads in one
 * transaction. A lead that has it already is counted, not changed; an id that is no lead of the
 * workspace is listed in `notFound`.
 */
export async function bulkTagLeads(ctx: Ctx, input: { leadIds: string[]; tagId?: string; name?: string }) {
  requireAccess(ctx, "write");
  const unique = [...new Set(input.leadIds)];
  return withTransaction(ctx, async (tx, c) => {
    const tag = await resolveTag(c, input);
    const found = await existingLeads(tx, ctx.workspaceId, unique);
    const ids = unique.filter((id) => found.has(id));
    const inserted = ids.length
      ? await selectRows<{ lead_id: string }>(
          tx,
          sql`insert into lead_tags (workspace_id, lead_id, tag_id, created_at)
            select ${ctx.workspaceId}, l, ${tag.id}, ${ctx.clock.now().toISOString()}::timestamptz
            from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) as l
            on conflict do nothing returning lead_id`,
        )
      : [];
    return {
      tag,
      tagged: inserted.length,
      alreadyTagged: ids.length - inserted.length,
      notFound: unique.filter((id) => !found.has(id)),
    };
  });
}

/**
 * POST /leads/bulk-untag: takes one tag off up to 1,000 leads in one transaction; each lead's timeline
 * records `untagged`. An unknown tag is 404.
 */
export async function bulkUntagLeads(ctx: Ctx, input: { leadIds: string[]; tagId: string }) {
  requireAccess(ctx, "write");
  const unique = [...new Set(input.leadIds)];
  return withTransaction(ctx, async (tx) => {
    const [tag] = await selectRows<{ id: string }>(
      tx,
      sql`select id from tags where id = ${input.tagId} and workspace_id = ${ctx.workspaceId}`,
    );
    if (!tag) throw new NotFoundError("Tag");
    const found = await existingLeads(tx, ctx.workspaceId, unique);
    const ids = unique.filter((id) => found.has(id));
    const removed = await untagLeads(tx, ctx.workspaceId, tag.id, ids, ctx.clock.now());
    return {
      tagId: tag.id,
      untagged: removed.length,
      notTagged: ids.length - removed.length,
      notFound: unique.filter((id) => !found.has(id)),
    };
  });
}
