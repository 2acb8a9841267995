import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { selectRows } from "../../db/bulk";
import { KEY_PREFIX, evaluateKey, hashApiKey, lookupApiKey, touchApiKey, type KeyLookup, type KeyRow } from "../auth/api-keys";
import { counterUpsert, stateFromCounter, type RateState } from "../rate-limit";
import { WORKSPACE_COOKIE } from "../auth/secrets";
import { liveSession, sessionClaims } from "../auth/sessions";
import { getDb } from "../../db/client";
import { currentClock } from "../clock";
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

/** The signed-in user of a dashboard session cookie whose session is still open, if any. */
export async function sessionUserId(req: Request): Promise<string | undefined> {
  const claims = await sessionClaims((n) => readCookie(req, n));
  if (!claims) return undefined;
  const live = await liveSession(getDb(), claims, currentClock().now());
  return live ? claims.userId : undefined;
}

/** The key of a token with its creator's role, and the request's count when it was counted. */
interface CountedKeyRow extends Record<string, unknown> {
  id: string;
  workspace_id: string;
  created_by: string;
  scope: KeyRow["scope"];
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  role: KeyRow["role"];
  points: number | null;
  reset_in: number | null;
}

const date = (v: string | null) => (v ? new Date(v) : null);

/**
 * Looks the key up and counts the request against its bucket in one statement. A token that names no
 * key counts nothing here (the caller's IP is counted instead).
 */
async function lookupApiKeyCounting(db: DbOrTx, token: string, now: Date, rateKey: string): Promise<{ key: KeyLookup; rate?: RateState }> {
  if (!token.startsWith(KEY_PREFIX)) return { key: { ok: false, reason: "Invalid API key" } };
  const [r] = await selectRows<CountedKeyRow>(
    db,
    sql`
    with k as (
      select k.id, k.workspace_id, k.created_by, k.scope, k.expires_at, k.revoked_at, k.last_used_at, m.role
      from api_keys k left join memberships m on m.workspace_id = k.workspace_id and m.user_id = k.created_by
      where k.hash = ${hashApiKey(token)}
    ), rl as (${counterUpsert(rateKey, 60, sql`exists (select 1 from k)`)})
    select k.*, rl.points, rl.reset_in from k left join rl on true`,
  );
  if (!r) return { key: { ok: false, reason: "Invalid API key" } };
  const row: KeyRow = {
    id: r.id,
    workspaceId: r.workspace_id,
    createdBy: r.created_by,
    scope: r.scope,
    expiresAt: date(r.expires_at),
    revokedAt: date(r.revoked_at),
    lastUsedAt: date(r.last_used_at),
    role: r.role,
  };
  const limit = rateLimits.apiKeyPerMinute;
  return { key: evaluateKey(row, now), rate: stateFromCounter(Number(r.points), Number(r.reset_in), limit) };
}

/** What the request presents, read without touching the database. */
export type Presented =
  | { kind: "apiKey"; token: string }
  | { kind: "session"; userId: string; sessionId: string }
  | { kind: "none"; reason: string };

export async function presentedCredential(req: Request): Promise<Presented> {
  const auth = req.headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) return { kind: "none", reason: "The Authorization header must be `Bearer <API_KEY>`" };
    return { kind: "apiKey", token: m[1] };
  }
  const claims = await sessionClaims((n) => readCookie(req, n));
  if (claims) return { kind: "session", ...claims };
  return { kind: "none", reason: "Missing credentials: send `Authorization: Bearer <API_KEY>`" };
}

/**
 * The rate-limit bucket of what was presented: per key (by its hash, so the counter can be hit while
 * the key is looked up), per user for sessions, per IP otherwise.
 */
export function rateBucket(req: Request, p: Presented): { rateKey: string; ratePoints: number } {
  if (p.kind === "apiKey") return { rateKey: `key:${hashApiKey(p.token).slice(0, 40)}`, ratePoints: rateLimits.apiKeyPerMinute };
  if (p.kind === "session") return { rateKey: `user:${p.userId}`, ratePoints: rateLimits.sessionPerMinute };
  return ipBucket(req);
}

export function ipBucket(req: Request): { rateKey: string; ratePoints: number } {
  return { rateKey: `ip:${clientIp(req)}`, ratePoints: rateLimits.ipPerMinute };
}

/**
 * Who is calling: a Bearer API key, else a dashboard session, else nobody. The
 * workspace of a session is the `X-Workspace-Id` header or `outreach_workspace` cookie, else the
 * user's first workspace. A session counts only while its row is open (ended sessions get 401).
 */
export async function resolveCredential(
  db: DbOrTx,
  req: Request,
  now: Date,
  presented?: Presented,
  /** When given, an API key's request is counted in the statement that looks the key up. */
  countWith?: { state?: RateState },
): Promise<Credential> {
  const p = presented ?? (await presentedCredential(req));
  const bucket = rateBucket(req, p);
  if (p.kind === "none") return { ok: false, reason: p.reason, ...bucket };
  if (p.kind === "apiKey") {
    const found = countWith ? await lookupApiKeyCounting(db, p.token, now, bucket.rateKey) : { key: await lookupApiKey(db, p.token, now) };
    if (countWith && found.rate) countWith.state = found.rate;
    const key = found.key;
    if (!key.ok) return { ok: false, reason: key.reason, ...ipBucket(req) };
    await touchApiKey(db, key.keyId, key.lastUsedAt, now);
    return {
      ok: true,
      workspaceId: key.workspaceId,
      actor: { type: "apiKey", keyId: key.keyId, userId: key.userId, role: key.role, scope: key.scope },
      ...bucket,
    };
  }
  const live = await liveSession(
    db,
    { ...p, wantedWorkspaceId: req.headers.get("x-workspace-id") ?? readCookie(req, WORKSPACE_COOKIE) },
    now,
  );
  if (!live) return { ok: false, reason: "This session has ended; sign in again", ...ipBucket(req) };
  if (!live.workspaceId || !live.role) return { ok: false, reason: "This account has no workspace", ...ipBucket(req) };
  return {
    ok: true,
    workspaceId: live.workspaceId,
    actor: { type: "session", userId: p.userId, role: live.role, sessionId: p.sessionId, mustEnrolTwoFactor: live.mustEnrolTwoFactor },
    ...bucket,
  };
}
