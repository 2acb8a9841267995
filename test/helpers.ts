import { decode, encode } from "next-auth/jwt";
import { openSession } from "../lib/auth/sessions";
import { getDb } from "../db/client";
import { memberships } from "../db/schema";
import { issueApiKey } from "../lib/auth/api-keys";
import { sessionSecret } from "../lib/auth/secrets";
import { setupWorkspace } from "../lib/auth/users";
import { randomBytes } from "node:crypto";
import { assertConforms } from "./conformance";
import type { RouteDef } from "../lib/api/route";

type Handler = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface TestWorkspace {
  workspaceId: string;
  userId: string;
  fullKey: string;
  readKey: string;
}

/** A workspace with an owner and one key of each scope. */
export async function makeWorkspace(name = `ws-${randomBytes(3).toString("hex")}`): Promise<TestWorkspace> {
  const email = `${name}-owner@example.com`;
  const { userId, workspaceId } = await setupWorkspace(getDb(), { email, password: "password123", workspaceName: name });
  const now = new Date();
  const full = await issueApiKey(getDb(), { workspaceId, userId, scope: "full" }, now);
  const read = await issueApiKey(getDb(), { workspaceId, userId, scope: "read" }, now);
  return { workspaceId, userId, fullKey: full.key, readKey: read.key };
}

/** Adds a member with `role` to the workspace and returns a full-scope key acting as them. */
export async function addMember(
  workspaceId: string,
  role: "admin" | "member" | "client" | "owner",
): Promise<{ userId: string; key: string }> {
  const { userId } = await setupWorkspace(getDb(), {
    email: `${role}-${randomBytes(3).toString("hex")}@example.com`,
    password: "password123",
    workspaceName: `own-${randomBytes(3).toString("hex")}`,
  });
  await getDb().insert(memberships).values({ workspaceId, userId, role });
  const k = await issueApiKey(getDb(), { workspaceId, userId, scope: "full" }, new Date());
  return { userId, key: k.key };
}

/** A dashboard session cookie for `userId`, with its open session row (as a sign-in makes). */
export async function sessionCookie(userId: string, opts: { userAgent?: string; ip?: string } = {}): Promise<string> {
  const sid = await openSession(getDb(), { userId, userAgent: opts.userAgent ?? "vitest", ip: opts.ip ?? "127.0.0.1" }, new Date());
  const token = await encode({ token: { sub: userId, sid }, secret: sessionSecret() });
  return `next-auth.session-token=${token}`;
}

/** The session row id inside a cookie made by `sessionCookie`. */
export async function sessionIdOf(cookie: string): Promise<string> {
  const token = cookie.slice(cookie.indexOf("=") + 1);
  const jwt = await decode({ token, secret: sessionSecret() });
  return String(jwt?.sid);
}

export interface CallOptions {
  key?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

/** Calls a route handler in-process with a real Request, as Next.js would. */
export async function call(
  handler: Handler,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.cookie) {
    headers.cookie = opts.cookie;
    // What a browser sends with the dashboard's own writes (the API refuses a session's cross-site ones).
    const own = Object.keys(headers).some((k) => k.toLowerCase() === "origin");
    if (!own) headers.origin = process.env.APP_URL ? new URL(process.env.APP_URL).origin : "http://localhost";
  }
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const req = new Request(`http://localhost/api/v1${path}`, { method, headers, body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  const contract = (handler as { contract?: RouteDef }).contract;
  assertConforms(method, req.url, { status: res.status, contentType: res.headers.get("content-type"), contract }, parsed);
  return { status: res.status, body: parsed, headers: res.headers };
}
