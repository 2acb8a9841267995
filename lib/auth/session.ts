import { eq } from "drizzle-orm";
import { cookies } from "next/headers";
import { getDb, resolveDatabaseUrl } from "../../db/client";
import { users } from "../../db/schema";
import { currentClock } from "../clock";
import { WORKSPACE_COOKIE } from "./secrets";
import { liveSession, sessionClaims } from "./sessions";
import { firstRunState, userWorkspaces } from "./users";

/** The database for a server component (the first page served may run before anything else did). */
export async function serverDb() {
  await resolveDatabaseUrl();
  return getDb();
}

export async function instanceNeedsSetup(): Promise<boolean> {
  return (await firstRunState(await serverDb())).needsSetup;
}

/**
 * Who is signed in and in which workspace, for dashboard pages: the same check as the API's (the
 * session row must still be open). Undefined without a session, for an ended one, and when the session
 * names a user the database no longer has (e.g. a reset database with an old cookie).
 */
export async function currentMember() {
  const jar = await cookies();
  const claims = await sessionClaims((n) => jar.get(n)?.value);
  if (!claims) return undefined;
  const db = await serverDb();
  const wanted = jar.get(WORKSPACE_COOKIE)?.value;
  const live = await liveSession(db, { ...claims, wantedWorkspaceId: wanted }, currentClock().now());
  if (!live) return undefined;
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, twoFactor: users.twoFactorEnabledAt })
    .from(users)
    .where(eq(users.id, claims.userId));
  if (!user) return undefined;
  const workspaces = await userWorkspaces(db, claims.userId);
  const workspace = workspaces.find((w) => w.id === live.workspaceId) ?? workspaces[0];
  return {
    user: { id: user.id, email: user.email, name: user.name, twoFactor: user.twoFactor !== null },
    workspaces,
    workspace,
    role: workspace?.role,
    sessionId: claims.sessionId,
    mustEnrolTwoFactor: live.mustEnrolTwoFactor,
  };
}
