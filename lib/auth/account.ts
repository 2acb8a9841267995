import { eq } from "drizzle-orm";
import { users, workspaces } from "../../db/schema";
import type { Ctx } from "../ctx";
import { ForbiddenError } from "../errors";
import { userWorkspaces } from "./users";

/** The signed-in user, the workspace this request acts in, and the others they belong to. */
export async function describeAccount(ctx: Ctx) {
  if (ctx.actor.type !== "session") throw new ForbiddenError("Only a dashboard session has an account view");
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, ctx.actor.userId));
  const [workspace] = await ctx.db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, ctx.workspaceId));
  return { user, workspace, role: ctx.actor.role, workspaces: await userWorkspaces(ctx.db, ctx.actor.userId) };
}
