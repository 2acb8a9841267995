import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { apiKeys, memberships, threadAssignments } from "../../db/schema";
import { audit } from "../audit/record";
import { requireRole, withTransaction, type Ctx } from "../ctx";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors";
import type { Role } from "../roles";
import { revokeUserSessions } from "./sessions";

/**
 * A workspace's members. Admins manage members and clients; only an owner makes or unmakes an owner,
 * and a workspace always keeps at least one owner (the last one can be neither demoted nor removed).
 * Removing someone takes effect at once: their sessions end, their API keys in the workspace are
 * revoked and their conversations are unassigned; what they sent keeps its history.
 */

export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  twoFactor: boolean;
  /** The latest of their sessions' last activity and their API keys' last use in this workspace. */
  lastActiveAt: string | null;
}

interface MemberRow extends Record<string, unknown> {
  user_id: string;
  email: string;
  name: string | null;
  role: Role;
  two_factor: boolean;
  last_active_at: string | null;
}

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

async function memberRows(db: DbOrTx, workspaceId: string, userId?: string): Promise<MemberView[]> {
  const rows = await selectRows<MemberRow>(
    db,
    sql`
    select u.id as user_id, u.email, u.name, m.role, u.two_factor_enabled_at is not null as two_factor,
      greatest(
        (select max(s.last_seen_at) from user_sessions s where s.user_id = u.id),
        (select max(k.last_used_at) from api_keys k where k.created_by = u.id and k.workspace_id = m.workspace_id)
      ) as last_active_at
    from memberships m join users u on u.id = m.user_id
    where m.workspace_id = ${workspaceId} ${userId ? sql`and m.user_id = ${userId}` : sql``}
    order by m.created_at, u.id`,
  );
  return rows.map((r) => ({
    userId: r.user_id,
    email: r.email,
    name: r.name,
    role: r.role,
    twoFactor: Boolean(r.two_factor),
    lastActiveAt: iso(r.last_active_at),
  }));
}

/** The signed-in user acting (members are managed from a dashboard session only). */
export function sessionUser(ctx: Ctx): { userId: string; role: Role; sessionId?: string } {
  if (ctx.actor.type !== "session") throw new ForbiddenError("Members are managed from a dashboard session, not with an API key");
  return { userId: ctx.actor.userId, role: ctx.actor.role, sessionId: ctx.actor.sessionId };
}

export async function listMembers(ctx: Ctx): Promise<MemberView[]> {
  sessionUser(ctx);
  return memberRows(ctx.db, ctx.workspaceId);
}

/**
 * The workspace's owners, locked until the transaction ends, and the target's membership: two
 * concurrent demotions of the last two owners cannot both pass the last-owner check.
 */
async function lockOwnersAndTarget(ctx: Ctx, userId: string) {
  const owners = await selectRows<{ user_id: string }>(
    ctx.db,
    sql`select user_id from memberships where workspace_id = ${ctx.workspaceId} and role = 'owner' order by user_id for update`,
  );
  const [target] = await memberRows(ctx.db, ctx.workspaceId, userId);
  if (!target) throw new NotFoundError("Member");
  return { ownerCount: owners.length, target };
}

const LAST_OWNER = "is the workspace's last owner: make another member an owner first";

/** Sets a member's role. Returns the member as listed. */
export async function changeMemberRole(ctx: Ctx, userId: string, role: Role): Promise<MemberView> {
  const actor = sessionUser(ctx);
  return withTransaction(ctx, async (tx, t) => {
    const { ownerCount, target } = await lockOwnersAndTarget(t, userId);
    if ((target.role === "owner" || role === "owner") && actor.role !== "owner") {
      throw new ForbiddenError("Only an owner may make someone an owner or change an owner's role");
    }
    if (target.role === role) return target;
    if (target.role === "owner" && ownerCount <= 1) throw new ConflictError(`${target.email} ${LAST_OWNER}`);
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.workspaceId, t.workspaceId), eq(memberships.userId, userId)));
    await audit(t, "member.role_changed", { type: "user", id: userId, label: target.email }, { from: target.role, to: role });
    return { ...target, role };
  });
}

export interface Removal {
  userId: string;
  removed: true;
  sessionsEnded: number;
  keysRevoked: number;
}

/**
 * Removes a member from the workspace; a member removing themselves leaves it. In one transaction:
 * the membership goes, their API keys here are revoked, every session of theirs ends (so their next
 * request is refused, whichever workspace it is for) and their conversations here are unassigned.
 */
export async function removeMember(ctx: Ctx, userId: string): Promise<Removal> {
  const actor = sessionUser(ctx);
  const leaving = actor.userId === userId;
  return withTransaction(ctx, async (tx, t) => {
    // Anyone may leave; removing someone else needs an admin. A user who is not a member is 404 either way.
    const { ownerCount, target } = await lockOwnersAndTarget(t, userId);
    if (!leaving) requireRole(ctx, "admin");
    if (target.role === "owner" && !leaving && actor.role !== "owner") throw new ForbiddenError("Only an owner may remove an owner");
    if (target.role === "owner" && ownerCount <= 1) throw new ConflictError(`${target.email} ${LAST_OWNER}`);
    const now = t.clock.now();
    await tx.delete(memberships).where(and(eq(memberships.workspaceId, t.workspaceId), eq(memberships.userId, userId)));
    const keys = await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.workspaceId, t.workspaceId), eq(apiKeys.createdBy, userId), sql`${apiKeys.revokedAt} is null`))
      .returning({ id: apiKeys.id });
    const sessionsEnded = await revokeUserSessions(tx, userId, "removed_from_workspace", now);
    const unassigned = await tx
      .delete(threadAssignments)
      .where(and(eq(threadAssignments.workspaceId, t.workspaceId), eq(threadAssignments.userId, userId)))
      .returning({ leadId: threadAssignments.leadId });
    await audit(
      t,
      "member.removed",
      { type: "user", id: userId, label: target.email },
      { role: target.role, left: leaving, keysRevoked: keys.length, sessionsEnded, conversationsUnassigned: unassigned.length },
    );
    return { userId, removed: true as const, sessionsEnded, keysRevoked: keys.length };
  });
}
