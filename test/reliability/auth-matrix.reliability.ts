import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { issueApiKey } from "../../lib/auth/api-keys";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "../helpers";
import { figure } from "./figures";
import { absentLike, buildFixture, type Fixture, inFixture, paramValue, SHARED_PARAMS } from "./fixture";
import { concrete, type Operation, operations, validBody } from "./routes";
import { changed, tableContents } from "./snapshot";

/**
 * Every route × {no credential, malformed, revoked, expired, read, another
 * workspace, own} answers as the credential rules say — 401 for a missing, invalid or expired credential; 403
 * for a read key on an F route and for an API key on a dashboard-only route; 404 for another
 * workspace's resource, the same answer as for an id that does not exist; never a 5xx, always the
 * 2.1 shape, and a refused request writes nothing.
 */
process.env.RATE_LIMIT_DISABLED = "1";
process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";

let a: TestWorkspace;
let b: TestWorkspace;
let fxA: Fixture;
let ops: Operation[];
let cookieA: string;
const cred: Record<string, Record<string, string>> = {};
let requests = 0;
let fiveXX = 0;

beforeAll(async () => {
  [a, b] = [await makeWorkspace("matrix-a"), await makeWorkspace("matrix-b")];
  fxA = await buildFixture(a, "a");
  await buildFixture(b, "b");
  // Public routes (an invitation's acceptance, a password reset) take no credential: nothing to refuse.
  ops = (await operations()).filter((op) => (op.def.credential as string | undefined) !== "public");
  cookieA = await sessionCookie(a.userId);
  const now = new Date();
  const revoked = await issueApiKey(getDb(), { workspaceId: a.workspaceId, userId: a.userId, scope: "full" }, now);
  await getDb().execute(sql`update api_keys set revoked_at = now() where id = ${revoked.id}`);
  const expired = await issueApiKey(getDb(), { workspaceId: a.workspaceId, userId: a.userId, scope: "full" }, now);
  await getDb().execute(sql`update api_keys set expires_at = now() - interval '1 second' where id = ${expired.id}`);
  Object.assign(cred, {
    none: {},
    garbageBearer: { authorization: "Bearer not-a-key" },
    emptyBearer: { authorization: "Bearer " },
    basic: { authorization: "Basic Zm9vOmJhcg==" },
    revoked: { authorization: `Bearer ${revoked.key}` },
    expired: { authorization: `Bearer ${expired.key}` },
  });
});

const sessionOnly = (op: Operation) => op.def.credential === "session";
const hasBody = (op: Operation) => op.method !== "GET" && op.method !== "DELETE";
const where = (op: Operation, who: string) => `${op.method} /${op.rel} as ${who}`;
/** Each route's valid body (its OpenAPI example), so a request passes the body check and reaches the lookup. */
const bodies = new Map<Operation, unknown>();
const bodyOf = (op: Operation) => (bodies.has(op) ? bodies.get(op) : bodies.set(op, validBody(op)).get(op));

async function send(op: Operation, headers: Record<string, string>, params: Record<string, string>, valid = false) {
  const body = hasBody(op) ? (valid && bodyOf(op)) || {} : undefined;
  const r = await call(op.handler, op.method, concrete(op.rel, params), { headers, params, body });
  requests++;
  if (r.status >= 500) fiveXX++;
  return r;
}

function ownParams(op: Operation): Record<string, string> {
  return Object.fromEntries(op.params.map((n) => [n, paramValue(fxA, op.rel, n) ?? "x_0000000000"]));
}

/** Checks the 2.1 shape and the expected status; returns a violation or null. */
function expectError(r: { status: number; body: any }, status: number, code: string, at: string): string | null {
  if (r.status !== status || r.body?.code !== code || typeof r.body?.error !== "string") {
    return `${at}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)} (want ${status} ${code})`;
  }
  return null;
}

describe("the auth matrix over every route", () => {
  it("answers 401 in the 2.1 shape to no, malformed, revoked and expired credentials, and writes nothing", async () => {
    const bad: string[] = [];
    for (const op of ops) {
      const before = await tableContents();
      for (const [who, headers] of Object.entries(cred)) {
        const v = expectError(await send(op, headers, ownParams(op)), 401, "UNAUTHORIZED", where(op, who));
        if (v) bad.push(v);
      }
      const diff = changed(before, await tableContents());
      if (diff.length) bad.push(`${where(op, "refused credentials")} wrote rows: ${diff.join(", ")}`);
    }
    figure({
      suite: "auth-matrix",
      name: "operations × 6 bad credentials: answers other than 401",
      value: bad.length,
      goal: "0",
      pass: !bad.length,
    });
    expect(bad).toEqual([]);
    expect(ops.length).toBeGreaterThan(100);
  });

  it("gives a read key 403 on every F and dashboard-only route, writing nothing, and serves it every R route", async () => {
    const bad: string[] = [];
    for (const op of ops) {
      const headers = { authorization: `Bearer ${a.readKey}` };
      if (op.def.access === "write" || sessionOnly(op)) {
        const before = await tableContents();
        const v = expectError(await send(op, headers, ownParams(op)), 403, "FORBIDDEN", where(op, "read key"));
        if (v) bad.push(v);
        const diff = changed(before, await tableContents());
        if (diff.length) bad.push(`${where(op, "read key")} wrote rows: ${diff.join(", ")}`);
      } else {
        const r = await send(op, headers, ownParams(op));
        if (r.status === 401 || r.status === 403 || r.status >= 500)
          bad.push(`${where(op, "read key")}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      }
    }
    figure({ suite: "auth-matrix", name: "read key: answers not as the rules say", value: bad.length, goal: "0", pass: !bad.length });
    expect(bad).toEqual([]);
  });

  it("answers another workspace's ids exactly as ids that do not exist (404, sent with a valid body where the route takes one), writing nothing", async () => {
    const bad: string[] = [];
    let checked = 0;
    for (const op of ops) {
      const owned = op.params.filter((n) => !(n in SHARED_PARAMS) && paramValue(fxA, op.rel, n));
      if (!owned.length || sessionOnly(op)) continue;
      checked++;
      const headers = { authorization: `Bearer ${b.fullKey}` };
      const foreign = ownParams(op);
      const absent = Object.fromEntries(Object.entries(foreign).map(([n, v]) => [n, owned.includes(n) ? absentLike(v) : v]));
      const before = await tableContents();
      const theirs = await send(op, headers, foreign, true);
      const diff = changed(before, await tableContents());
      const none = await send(op, headers, absent, true);
      const at = where(op, "another workspace");
      if (diff.length) bad.push(`${at} wrote rows: ${diff.join(", ")}`);
      if (theirs.status !== none.status || theirs.body?.code !== none.body?.code) {
        bad.push(`${at}: ${theirs.status} ${theirs.body?.code} but an absent id gives ${none.status} ${none.body?.code}`);
      }
      // With a valid body the request gets past validation, so the foreign id must reach the lookup: 404.
      if (hasBody(op) && op.def.body && bodyOf(op) === undefined) bad.push(`${at}: no valid body could be built from the contract`);
      const v = expectError(theirs, 404, "NOT_FOUND", at);
      if (v) bad.push(v);
    }
    figure({
      suite: "auth-matrix",
      name: `another workspace's ids on ${checked} operations: leaks`,
      value: bad.length,
      goal: "0",
      pass: !bad.length,
    });
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });

  it("serves the owner every route (dashboard-only ones to the session), never a 5xx", async () => {
    const bad: string[] = [];
    const order = ["GET", "PUT", "PATCH", "POST", "DELETE"];
    // Reads, then writes; deletes last and the deepest first (a step before its campaign).
    const rank = (op: Operation) => order.indexOf(op.method) * 10 + (op.method === "DELETE" ? 9 - op.params.length : 0);
    const sorted = [...ops].sort((x, y) => rank(x) - rank(y));
    let complete = 0;
    for (const op of sorted) {
      const params = ownParams(op);
      const known = inFixture(fxA, op.rel, op.params);
      if (sessionOnly(op)) {
        const v = expectError(await send(op, { authorization: `Bearer ${a.fullKey}` }, params), 403, "FORBIDDEN", where(op, "owner's key"));
        if (v) bad.push(v);
      }
      const headers: Record<string, string> = sessionOnly(op)
        ? { cookie: cookieA, origin: "http://localhost" }
        : { authorization: `Bearer ${a.fullKey}` };
      const r = await send(op, headers, params);
      const refused = r.status === 401 || r.status === 403 || r.status >= 500 || (known && r.status === 404);
      if (refused) bad.push(`${where(op, "owner")}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      if (known) complete++;
    }
    figure({
      suite: "auth-matrix",
      name: "owner: operations with a fixture for every id",
      value: `${complete}/${ops.length}`,
      goal: "most",
      pass: true,
    });
    figure({ suite: "auth-matrix", name: "owner refused (401/403/404/5xx)", value: bad.length, goal: "0", pass: !bad.length });
    figure({ suite: "auth-matrix", name: "requests; 5xx answers", value: `${requests}; ${fiveXX}`, goal: "5xx = 0", pass: fiveXX === 0 });
    expect(bad).toEqual([]);
    expect(fiveXX).toBe(0);
  });
});
