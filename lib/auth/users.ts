import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { appSettings, memberships, users, workspaces } from "../../db/schema";
import { ConflictError, ForbiddenError, ValidationError } from "../errors";
import { newId } from "../ids";
import { hashPassword, verifyPassword } from "./passwords";

export const MIN_PASSWORD = 8;

export async function findUserByEmail(db: DbOrTx, email: string) {
  const [u] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return u;
}

export async function countUsers(db: DbOrTx): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return r.n;
}

export async function checkCredentials(db: DbOrTx, email: string, password: string) {
  const u = await findUserByEmail(db, email);
  if (!u) return undefined;
  return (await verifyPassword(password, u.passwordHash)) ? u : undefined;
}

function checkPassword(password: string) {
  if (password.length < MIN_PASSWORD) throw ValidationError.field("password", `must be at least ${MIN_PASSWORD} characters`);
}

/**
 * `outreach setup`: creates a workspace with its owner. Repeatable: an existing email keeps its
 * password; a workspace name the user already owns is reused, another name adds another workspace.
 */
export async function setupWorkspace(
  db: DbOrTx,
  input: { email: string; password: string; workspaceName?: string; name?: string },
): Promise<{ userId: string; workspaceId: string; createdUser: boolean; createdWorkspace: boolean }> {
  const email = input.email.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw ValidationError.field("email", "is not a valid email address");
  const wsName = (input.workspaceName ?? "My workspace").trim() || "My workspace";
  return db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email);
    let createdUser = false;
    if (!user) {
      checkPassword(input.password);
      [user] = await tx
        .insert(users)
        .values({ id: newId("usr"), email, name: input.name ?? null, passwordHash: await hashPassword(input.password) })
        .returning();
      createdUser = true;
    }
    const [existing] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .innerJoin(memberships, eq(memberships.workspaceId, workspaces.id))
      .where(and(eq(memberships.userId, user.id), sql`lower(${workspaces.name}) = lower(${wsName})`))
      .orderBy(asc(workspaces.createdAt))
      .limit(1);
    if (existing) return { userId: user.id, workspaceId: existing.id, createdUser, createdWorkspace: false };
    const [ws] = await tx
      .insert(workspaces)
      .values({ id: newId("ws"), name: wsName })
      .returning();
    await tx.insert(memberships).values({ workspaceId: ws.id, userId: user.id, role: "owner" });
    return { userId: user.id, workspaceId: ws.id, createdUser, createdWorkspace: true };
  });
}

const SETUP_TOKEN_KEY = "setup_token";

/** The one-time token of the first-run link; made once while the database has no user. */
export async function ensureSetupToken(db: DbOrTx): Promise<string | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const token = randomBytes(18).toString("base64url");
  await db.insert(appSettings).values({ key: SETUP_TOKEN_KEY, value: token }).onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, SETUP_TOKEN_KEY));
  return row.value;
}

export async function firstRunState(db: DbOrTx): Promise<{ needsSetup: boolean }> {
  return { needsSetup: (await countUsers(db)) === 0 };
}

/**
 * The first sign-up creates the workspace and its owner. Allowed only while no user exists, and only
 * with the setup token that `npm start` printed, so a fresh public instance cannot be claimed by a
 * stranger.
 */
export async function firstRunSignup(
  db: DbOrTx,
  input: { email: string; password: string; workspaceName: string; name?: string; token: string },
) {
  return db.transaction(async (tx) => {
    // Serialise concurrent first sign-ups: only one may become the owner.
    await tx.execute(sql`select pg_advisory_xact_lock(724012)`);
    if ((await countUsers(tx)) > 0) throw new ConflictError("This instance is already set up; sign in instead");
    const [row] = await tx.select().from(appSettings).where(eq(appSettings.key, SETUP_TOKEN_KEY));
    if (!row || row.value !== input.token) throw new ForbiddenError("The setup link is invalid; use the one printed by `npm start`");
    checkPassword(input.password);
    const result = await setupWorkspace(tx, input);
    await tx.delete(appSettings).where(eq(appSettings.key, SETUP_TOKEN_KEY));
    return result;
  });
}

export async function userWorkspaces(db: DbOrTx, userId: string) {
  return db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(workspaces.id));
}
