import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { cookies } from "next/headers";
import { getDb, resolveDatabaseUrl } from "../../db/client";
import { users } from "../../db/schema";
import { authOptions } from "./options";
import { firstRunState, userWorkspaces } from "./users";

/** The database for a server component (the first page served may run before anything else did). */
export async function serverDb() {
  await resolveDatabaseUrl();
  return getDb();
}

export async function instanceNeedsSetup(): Promise<boolean> {
  return (await firstRunState(await serverDb())).needsSetup;
}

/** The cookie the API edge reads to pick a session's workspace (lib/api/credentials.ts). */
export const WORKSPACE_COOKIE = "outreach_workspace";

/**
 * Who is signed in and in which workspace, for dashboard pages. Undefined without a session, and when
 * the session names a user the database no longer has (e.g. a reset database with an old cookie).
 */
export async function currentMember() {
  const session = await getServerSession(authOptions);
  const userId = session?.user?.id;
  if (!userId) return undefined;
  const db = await serverDb();
  const [user] = await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const workspaces = await userWorkspaces(db, userId);
  const wanted = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const workspace = workspaces.find((w) => w.id === wanted) ?? workspaces[0];
  return { user, workspaces, workspace };
}
