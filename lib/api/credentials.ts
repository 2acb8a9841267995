import { decode } from "next-auth/jwt";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships } from "../../db/schema";
import { lookupApiKey, touchApiKey } from "../auth/api-keys";
import { SESSION_COOKIE_NAMES, sessionSecret } from "../auth/secrets";
import { userWorkspaces } from "../auth/users";
import type { Actor } from "../ctx";
import { rateLimits } from "../env";

export type Credential =
  | { ok: true; workspaceId: string; actor: Exclude<Actor, { type: "system" }>; rateKey: string; ratePoints: number }
  | { ok: false; reason: string; rateKey: string; ratePoints: number };

export function clientIp(req: Request): string {
  const fwd = req.headers.get("x-forwarded-for");
  if (fwd) return fwd.split(",")[0].trim();
  return req.headers.get("x-real-ip") ?? "local";
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

/** The signed-in user of a dashboard session cookie, if any. */
export async function sessionUserId(req: Request): Promise<string | undefined> {
  for (const name of SESSION_COOKIE_NAMES) {
    const token = readCookie(req, name);
    if (!token) continue;
    const jwt = await decode({ token, secret: sessionSecret() }).catch(() => null);
    if (jwt?.sub) return jwt.sub;
  }
  return undefined;
}

/**
 * Who is calling: a Bearer API key (spec 5.1), else a dashboard session (5.7), else nobody. The
 * workspace of a session is the `X-Workspace-Id` header or `outreach_workspace` cookie, else the
 * user's first workspace.
 */
export async function resolveCredential(db: DbOrTx, req: Request, now: Date): Promise<Credential> {
  const anonymous = { rateKey: `ip:${clientIp(req)}`, ratePoints: rateLimits.ipPerMinute };
  const auth = req.headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) return { ok: false, reason: "The Authorization header must be `Bearer <API_KEY>`", ...anonymous };
    const found = await lookupApiKey(db, m[1], now);
    if (!found.ok) return { ok: false, reason: found.reason, ...anonymous };
    await touchApiKey(db, found.keyId, found.lastUsedAt, now);
    return {
      ok: true,
      workspaceId: found.workspaceId,
      actor: { type: "apiKey", keyId: found.keyId, userId: found.userId, role: found.role, scope: found.scope },
      rateKey: `key:${found.keyId}`,
      ratePoints: rateLimits.apiKeyPerMinute,
    };
  }
  const userId = await sessionUserId(req);
  if (!userId) return { ok: false, reason: "Missing credentials: send `Authorization: Bearer <API_KEY>`", ...anonymous };
  const wanted = req.headers.get("x-workspace-id") ?? readCookie(req, "outreach_workspace");
  let membership: { workspaceId: string; role: "owner" | "admin" | "member" } | undefined;
  if (wanted) {
    [membership] = await db
      .select({ workspaceId: memberships.workspaceId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, wanted)));
  }
  if (!membership) {
    const [first] = await userWorkspaces(db, userId);
    if (first) membership = { workspaceId: first.id, role: first.role };
  }
  if (!membership) return { ok: false, reason: "This account has no workspace", ...anonymous };
  return {
    ok: true,
    workspaceId: membership.workspaceId,
    actor: { type: "session", userId, role: membership.role },
    rateKey: `user:${userId}`,
    ratePoints: rateLimits.sessionPerMinute,
  };
}
