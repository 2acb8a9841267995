import { and, eq, sql, type SQL } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { leads, memberships, threadAssignments } from "../../db/schema";
import { type Ctx, requireAccess } from "../ctx";
import { NotFoundError, ValidationError } from "../errors";

/**
 * Conversation assignment: who in the team handles a lead's thread (one person per thread, or
 * nobody). Only a current member who is not a client may hold a thread; an assignment whose holder
 * has left the workspace counts as none everywhere (lists, filters, the thread).
 */

export interface Assignee {
  userId: string;
  name: string;
}

/** A user as the inbox names them: their name, else their email. */
export const personName = (u: { name: string | null; email: string }) => u.name?.trim() || u.email;

/** The live assignees of `leadIds` (holders still members of the workspace), by lead. */
export async function assigneesOf(db: DbOrTx, workspaceId: string, leadIds: string[]): Promise<Map<string, Assignee>> {
  if (leadIds.length === 0) return new Map();
  const rows = await selectRows<{ lead_id: string; user_id: string; name: string | null; email: string }>(
    db,
    sql`select ta.lead_id, ta.user_id, u.name, u.email from thread_assignments ta
      join memberships m on m.workspace_id = ta.workspace_id and m.user_id = ta.user_id
      join users u on u.id = ta.user_id
      where ta.workspace_id = ${workspaceId} and ta.lead_id in ${leadIds}`,
  );
  return new Map(rows.map((r) => [r.lead_id, { userId: r.user_id, name: personName(r) }]));
}

/** The user `assignee=me` stands for: the session's user, or the creator of the API key. */
function meOf(ctx: Ctx): string {
  if (ctx.actor.type === "system") throw ValidationError.field("assignee", "`me` needs a signed-in user or an API key");
  return ctx.actor.userId;
}

/**
 * The `assignee` filter of /replies/threads over `replies r`: `me`, `none` (nobody, or someone who has
 * left), or a user id. Undefined when not filtering.
 */
export function assigneeCondition(ctx: Ctx, assignee: string | undefined): SQL | undefined {
  if (!assignee) return undefined;
  const live = sql`select 1 from thread_assignments ta join memberships m on m.workspace_id = ta.workspace_id and m.user_id = ta.user_id
    where ta.workspace_id = r.workspace_id and ta.lead_id = r.lead_id`;
  if (assignee === "none") return sql`not exists (${live})`;
  const userId = assignee === "me" ? meOf(ctx) : assignee;
  return sql`exists (${live} and ta.user_id = ${userId})`;
}

/**
 * PATCH /replies/thread/<leadId>/assign: gives the thread to a member (not a client), or to nobody
 * (`userId: null`). A lead of another workspace is 404; a user who is not a member, or is a client,
 * is a 400 on `userId`.
 */
export async function assignThread(
  ctx: Ctx,
  leadId: string,
  userId: string | null,
): Promise<{ leadId: string; assignee: Assignee | null }> {
  requireAccess(ctx, "write");
  const [lead] = await ctx.db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.id, leadId), eq(leads.workspaceId, ctx.workspaceId)));
  if (!lead) throw new NotFoundError("Lead");
  const where = and(eq(threadAssignments.workspaceId, ctx.workspaceId), eq(threadAssignments.leadId, leadId));
  if (userId === null) {
    await ctx.db.delete(threadAssignments).where(where);
    return { leadId, assignee: null };
  }
  const [m] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, ctx.workspaceId), eq(memberships.userId, userId)));
  if (!m) throw ValidationError.field("userId", "is not a member of this workspace");
  if (m.role === "client") throw ValidationError.field("userId", "is a client seat, which cannot be assigned conversations");
  const by = ctx.actor.type === "system" ? null : ctx.actor.userId;
  const at = ctx.clock.now();
  await ctx.db
    .insert(threadAssignments)
    .values({ workspaceId: ctx.workspaceId, leadId, userId, assignedBy: by, assignedAt: at })
    .onConflictDoUpdate({
      target: [threadAssignments.workspaceId, threadAssignments.leadId],
      set: { userId, assignedBy: by, assignedAt: at },
    });
  const assignee = (await assigneesOf(ctx.db, ctx.workspaceId, [leadId])).get(leadId) ?? null;
  return { leadId, assignee };
}
