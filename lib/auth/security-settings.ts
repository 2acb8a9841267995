import { eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { users, workspaces } from "../../db/schema";
import { audit } from "../audit/record";
import { type Ctx, withTransaction } from "../ctx";
import { ConflictError, NotFoundError } from "../errors";
import { revokeUserSessions } from "./sessions";

/** The workspace's security settings (any member may read them). */
export async function securitySettings(ctx: Ctx): Promise<{ requireTwoFactor: boolean }> {
  const [w] = await ctx.db.select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, ctx.workspaceId));
  if (!w) throw new NotFoundError("Workspace");
  return { requireTwoFactor: w.settings.requireTwoFactor === true };
}

/**
 * Requires (or stops requiring) two-factor sign-in of every member; the route is the owner's. Turning
 * it on needs the owner's own two-factor sign-in on, and ends at once every session of each member
 * without it: when they sign in again, they are sent to enrol before anything else answers.
 */
export async function updateSecuritySettings(ctx: Ctx, input: { requireTwoFactor: boolean }) {
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx, c) => {
    const [w] = await tx
      .select({ name: workspaces.name, settings: workspaces.settings })
      .from(workspaces)
      .where(eq(workspaces.id, ctx.workspaceId))
      .for("update");
    if (!w) throw new NotFoundError("Workspace");
    const before = w.settings.requireTwoFactor === true;
    const after = input.requireTwoFactor;
    if (before === after) return { requireTwoFactor: after };
    if (after && ctx.actor.type === "session") {
      const [me] = await tx.select({ on: users.twoFactorEnabledAt }).from(users).where(eq(users.id, ctx.actor.userId));
      if (!me?.on)
        throw new ConflictError("Turn on two-factor sign-in for your own account first (Settings → Security), then require it of everyone");
    }
    await tx
      .update(workspaces)
      .set({ settings: sql`${workspaces.settings} || jsonb_build_object('requireTwoFactor', ${after}::boolean)` })
      .where(eq(workspaces.id, ctx.workspaceId));
    let sessionsEnded = 0;
    let membersSignedOut = 0;
    if (after) {
      const without = await selectRows<{ user_id: string }>(
        tx,
        sql`select m.user_id from memberships m join users u on u.id = m.user_id
          where m.workspace_id = ${ctx.workspaceId} and u.two_factor_enabled_at is null order by m.user_id`,
      );
      for (const m of without) {
        const n = await revokeUserSessions(tx, m.user_id, "two_factor_required", now);
        sessionsEnded += n;
        if (n > 0) membersSignedOut++;
      }
    }
    await audit(
      c,
      "settings.changed",
      { type: "workspace", id: ctx.workspaceId, label: w.name },
      {
        setting: "requireTwoFactor",
        before,
        after,
        membersSignedOut,
        sessionsEnded,
      },
    );
    return { requireTwoFactor: after };
  });
}
