import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { userSessions } from "../../db/schema";
import type { Role } from "../roles";
import { newId } from "../ids";
import { decode } from "next-auth/jwt";
import { SESSION_COOKIE_NAMES, sessionSecret } from "./secrets";

/** A session's last-seen time is written at most this often (reads stay one statement). */
const TOUCH_EVERY_MS = 60_000;

export type RevokeReason = "signed_out" | "revoked_by_user" | "password_changed" | "removed_from_workspace" | "two_factor_required";

/** What a dashboard session cookie says (user and session row), before the row is checked. */
export async function sessionClaims(
  cookie: (name: string) => string | undefined,
): Promise<{ userId: string; sessionId: string } | undefined> {
  for (const name of SESSION_COOKIE_NAMES) {
    const token = cookie(name);
    if (!token) continue;
    const jwt = await decode({ token, secret: sessionSecret() }).catch(() => null);
    // A token without a session row (`sid`) predates revocable sessions: it is not honoured.
    if (jwt?.sub && typeof jwt.sid === "string") return { userId: jwt.sub, sessionId: jwt.sid };
  }
  return undefined;
}

/** Opens a session row for a sign-in; its id goes into the session cookie as `sid`. */
export async function openSession(db: DbOrTx, input: { userId: string; userAgent?: string | null; ip?: string | null }, now: Date) {
  const id = newId("ses");
  await db.insert(userSessions).values({
    id,
    userId: input.userId,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
    ip: input.ip ?? null,
    createdAt: now,
    lastSeenAt: now,
  });
  return id;
}

interface SessionRow extends Record<string, unknown> {
  last_seen_at: string;
  workspace_id: string | null;
  role: Role | null;
  require_2fa: boolean | null;
  has_2fa: boolean;
}

export interface LiveSession {
  workspaceId: string | null;
  role: Role | null;
  /** The workspace requires two-factor sign-in and this user has not enrolled yet. */
  mustEnrolTwoFactor: boolean;
}

/**
 * The session a cookie names, if it is still open, with the membership the request acts in: the wanted
 * workspace when the user is a member of it, else their first. One statement; last-seen is written at
 * most once a minute.
 */
export async function liveSession(
  db: DbOrTx,
  input: { sessionId: string; userId: string; wantedWorkspaceId?: string | null },
  now: Date,
): Promise<LiveSession | undefined> {
  const wanted = input.wantedWorkspaceId ?? "";
  const [r] = await selectRows<SessionRow>(
    db,
    sql`
    select s.last_seen_at, m.workspace_id, m.role,
      coalesce((w.settings->>'requireTwoFactor')::boolean, false) as require_2fa,
      u.two_factor_enabled_at is not null as has_2fa
    from user_sessions s
    join users u on u.id = s.user_id
    left join lateral (
      select m.workspace_id, m.role from memberships m where m.user_id = s.user_id
      order by (m.workspace_id = ${wanted}) desc, m.created_at, m.workspace_id limit 1
    ) m on true
    left join workspaces w on w.id = m.workspace_id
    where s.id = ${input.sessionId} and s.user_id = ${input.userId} and s.revoked_at is null`,
  );
  if (!r) return undefined;
  if (now.getTime() - new Date(r.last_seen_at).getTime() >= TOUCH_EVERY_MS) {
    await db.update(userSessions).set({ lastSeenAt: now }).where(eq(userSessions.id, input.sessionId));
  }
  return { workspaceId: r.workspace_id, role: r.role, mustEnrolTwoFactor: Boolean(r.require_2fa) && !r.has_2fa };
}

export async function listSessions(db: DbOrTx, userId: string, currentId: string | undefined) {
  const rows = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)))
    .orderBy(desc(userSessions.lastSeenAt), desc(userSessions.id));
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.userAgent,
    ip: r.ip,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    current: r.id === currentId,
  }));
}

/** Ends one of the user's sessions; false when it is not theirs or already ended. */
export async function revokeSession(db: DbOrTx, userId: string, sessionId: string, reason: RevokeReason, now: Date): Promise<boolean> {
  const rows = await db
    .update(userSessions)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)))
    .returning({ id: userSessions.id });
  return rows.length > 0;
}

/** Ends every open session of the user but `keep` (the one making the request, when given). Returns how many. */
export async function revokeUserSessions(db: DbOrTx, userId: string, reason: RevokeReason, now: Date, keep?: string): Promise<number> {
  const rows = await db
    .update(userSessions)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt), keep ? ne(userSessions.id, keep) : undefined))
    .returning({ id: userSessions.id });
  return rows.length;
}
