import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { memberships } from "@/db/schema";
import { issueApiKey } from "@/lib/auth/api-keys";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { GET as LIST_LEADS, POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as LIST_KEYS, POST as CREATE_KEY } from "@/app/api/v1/account/api-keys/route";
import { DELETE as REVOKE_KEY } from "@/app/api/v1/account/api-keys/[id]/route";
import { GET as ACCOUNT } from "@/app/api/v1/account/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
afterEach(() => {
  useClock(systemClock);
  delete process.env.RATE_LIMIT_API_KEY;
  delete process.env.RATE_LIMIT_IP;
  delete process.env.RATE_LIMIT_SESSION;
});

function expectErrorShape(body: any, code: string) {
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
}

describe("credentials", () => {
  it("answers 401 without credentials, with rate-limit headers", async () => {
    const r = await call(LIST_LEADS, "GET", "/leads");
    expect(r.status).toBe(401);
    expectErrorShape(r.body, "UNAUTHORIZED");
    expect(r.headers.get("X-RateLimit-Limit")).toBe("200");
    expect(r.headers.get("X-RateLimit-Remaining")).not.toBeNull();
    expect(Number(r.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(Date.now() / 1000);
  });

  it("answers 401 for an unknown key and a malformed Authorization header", async () => {
    const a = await call(LIST_LEADS, "GET", "/leads", { key: "ok_live_notarealkey" });
    expect(a.status).toBe(401);
    const b = await call(LIST_LEADS, "GET", "/leads", { headers: { authorization: "Token abc" } });
    expect(b.status).toBe(401);
    expect(b.body.error).toContain("Bearer");
  });

  it("answers 401 for an expired key, and accepts it before expiry", async () => {
    const clock = new ManualClock(new Date());
    useClock(clock);
    const k = await issueApiKey(
      getDb(),
      { workspaceId: ws.workspaceId, userId: ws.userId, scope: "read", expiresAt: new Date(clock.now().getTime() + 3600_000) },
      clock.now(),
    );
    expect((await call(LIST_LEADS, "GET", "/leads", { key: k.key })).status).toBe(200);
    clock.advance(3600_001);
    const r = await call(LIST_LEADS, "GET", "/leads", { key: k.key });
    expect(r.status).toBe(401);
    expect(r.body.error).toContain("expired");
  });

  it("stops a key when the member who created it leaves the workspace", async () => {
    const m = await addMember(ws.workspaceId, "member");
    expect((await call(LIST_LEADS, "GET", "/leads", { key: m.key })).status).toBe(200);
    await getDb().delete(memberships).where(eq(memberships.userId, m.userId));
    const r = await call(LIST_LEADS, "GET", "/leads", { key: m.key });
    expect(r.status).toBe(401);
    expect(r.body.error).toContain("left the workspace");
  });

  it("gives a read-only key 403 on an F route and 200 on an R route", async () => {
    const w = await call(CREATE_LEADS, "POST", "/leads", { key: ws.readKey, body: { leads: [{ email: "ro@example.com" }] } });
    expect(w.status).toBe(403);
    expectErrorShape(w.body, "FORBIDDEN");
    expect(w.body.error).toContain("read-only");
    expect((await call(LIST_LEADS, "GET", "/leads?q=ro@", { key: ws.readKey })).body.total).toBe(0);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: ws.readKey })).status).toBe(200);
  });

  it("accepts a dashboard session cookie and acts in the user's workspace", async () => {
    const cookie = await sessionCookie(ws.userId);
    const r = await call(ACCOUNT, "GET", "/account", { cookie });
    expect(r.status).toBe(200);
    expect(r.body.workspace.id).toBe(ws.workspaceId);
    expect(r.body.role).toBe("owner");
    expect(r.headers.get("X-RateLimit-Limit")).toBe("600");
  });

  it("rejects a forged session cookie", async () => {
    const r = await call(LIST_LEADS, "GET", "/leads", { cookie: "next-auth.session-token=forged.token.value" });
    expect(r.status).toBe(401);
  });
});

describe("API-key management (session only)", () => {
  it("creates a key shown once, lists it without the secret, and revokes it", async () => {
    const cookie = await sessionCookie(ws.userId);
    const created = await call(CREATE_KEY, "POST", "/account/api-keys", { cookie, body: { name: "CI", scope: "full" } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ok_live_[0-9A-Za-z]{36}$/);
    const list = await call(LIST_KEYS, "GET", "/account/api-keys", { cookie });
    const row = list.body.apiKeys.find((k: any) => k.id === created.body.id);
    expect(row).toMatchObject({ name: "CI", scope: "full", status: "active" });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: created.body.key })).status).toBe(200);
    const revoked = await call(REVOKE_KEY, "DELETE", "", { cookie, params: { id: created.body.id } });
    expect(revoked.body.status).toBe("revoked");
    const after = await call(LIST_LEADS, "GET", "/leads", { key: created.body.key });
    expect(after.status).toBe(401);
    expect(after.body.error).toContain("revoked");
  });

  it("gives an API key 403 on the account routes", async () => {
    const r = await call(LIST_KEYS, "GET", "/account/api-keys", { key: ws.fullKey });
    expect(r.status).toBe(403);
    expectErrorShape(r.body, "FORBIDDEN");
    const c = await call(CREATE_KEY, "POST", "/account/api-keys", { key: ws.fullKey, body: { scope: "full" } });
    expect(c.status).toBe(403);
  });

  it("refuses an expiry in the past and an unknown scope", async () => {
    const cookie = await sessionCookie(ws.userId);
    const past = await call(CREATE_KEY, "POST", "/account/api-keys", {
      cookie,
      body: { scope: "read", expiresAt: "2020-01-01T00:00:00Z" },
    });
    expect(past.status).toBe(400);
    expect(past.body.details.fieldErrors.expiresAt).toBeDefined();
    const scope = await call(CREATE_KEY, "POST", "/account/api-keys", { cookie, body: { scope: "admin" } });
    expect(scope.status).toBe(400);
    expect(scope.body.details.fieldErrors.scope).toBeDefined();
  });

  it("does not let one workspace revoke another's key", async () => {
    const other = await makeWorkspace();
    const theirs = await issueApiKey(getDb(), { workspaceId: other.workspaceId, userId: other.userId, scope: "full" }, new Date());
    const r = await call(REVOKE_KEY, "DELETE", "", { cookie: await sessionCookie(ws.userId), params: { id: theirs.id } });
    expect(r.status).toBe(404);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: theirs.key })).status).toBe(200);
  });
});

describe("rate limits", () => {
  it("allows exactly the limit under concurrency, then 429 with Retry-After", async () => {
    process.env.RATE_LIMIT_API_KEY = "10";
    const own = await makeWorkspace();
    const results = await Promise.all(Array.from({ length: 16 }, () => call(LIST_LEADS, "GET", "/leads", { key: own.readKey })));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(limited).toHaveLength(6);
    expectErrorShape(limited[0].body, "RATE_LIMITED");
    expect(Number(limited[0].headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers.get("X-RateLimit-Remaining")).toBe("0");
    const remaining = ok.map((r) => Number(r.headers.get("X-RateLimit-Remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("never shares a limit between keys", async () => {
    process.env.RATE_LIMIT_API_KEY = "2";
    const own = await makeWorkspace();
    for (let i = 0; i < 2; i++) expect((await call(LIST_LEADS, "GET", "/leads", { key: own.readKey })).status).toBe(200);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: own.readKey })).status).toBe(429);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: own.fullKey })).status).toBe(200);
  });

  it("limits requests without credentials per IP", async () => {
    process.env.RATE_LIMIT_IP = "3";
    const headers = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 3; i++) expect((await call(LIST_LEADS, "GET", "/leads", { headers })).status).toBe(401);
    const r = await call(LIST_LEADS, "GET", "/leads", { headers });
    expect(r.status).toBe(429);
    expect((await call(LIST_LEADS, "GET", "/leads", { headers: { "x-forwarded-for": "203.0.113.10" } })).status).toBe(401);
  });

  it("limits a dashboard session per user", async () => {
    process.env.RATE_LIMIT_SESSION = "2";
    const own = await makeWorkspace();
    const cookie = await sessionCookie(own.userId);
    expect((await call(LIST_LEADS, "GET", "/leads", { cookie })).status).toBe(200);
    expect((await call(LIST_LEADS, "GET", "/leads", { cookie })).status).toBe(200);
    const r = await call(LIST_LEADS, "GET", "/leads", { cookie });
    expect(r.status).toBe(429);
    expect(r.headers.get("X-RateLimit-Limit")).toBe("2");
  });
});
