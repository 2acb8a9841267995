import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog } from "@/db/schema";
import { call, makeWorkspace, sessionCookie, sessionIdOf, type TestWorkspace } from "@/test/helpers";
import { GET as ACCOUNT } from "../route";
import { DELETE as END } from "./[id]/route";
import { POST as END_OTHERS } from "./revoke-others/route";
import { GET as LIST } from "./route";

let ws: TestWorkspace;
let other: TestWorkspace;

const account = (cookie: string) => call(ACCOUNT, "GET", "/account", { cookie });
const end = (cookie: string, id: string) => call(END, "DELETE", `/account/sessions/${id}`, { cookie, params: { id } });

async function revokedAudits(userId: string) {
  return getDb()
    .select()
    .from(auditLog)
    .where(sql`${auditLog.subjectUserId} = ${userId} and ${auditLog.action} = 'auth.sessions_revoked'`)
    .orderBy(auditLog.at);
}

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
});

describe("GET /account/sessions", () => {
  it("lists the user's open sessions with the current one marked; an API key is refused", async () => {
    const laptop = await sessionCookie(ws.userId, { userAgent: "Mozilla/5.0 (Macintosh) Safari/605.1.15", ip: "192.0.2.10" });
    const phone = await sessionCookie(ws.userId, { userAgent: "Mozilla/5.0 (iPhone) Mobile Safari", ip: "192.0.2.11" });
    await sessionCookie(other.userId);
    const r = await call(LIST, "GET", "/account/sessions", { cookie: laptop });
    expect(r.status).toBe(200);
    const ids = [await sessionIdOf(laptop), await sessionIdOf(phone)];
    const mine = r.body.sessions.filter((s: { id: string }) => ids.includes(s.id));
    expect(mine).toHaveLength(2);
    expect(r.body.sessions).toHaveLength(2);
    expect(r.body.sessions.find((s: { id: string }) => s.id === ids[0])).toMatchObject({
      userAgent: expect.stringContaining("Macintosh"),
      ip: "192.0.2.10",
      current: true,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect(r.body.sessions.find((s: { id: string }) => s.id === ids[1]).current).toBe(false);
    expect((await call(LIST, "GET", "/account/sessions", { key: ws.readKey })).status).toBe(403);
  });
});

describe("DELETE /account/sessions/{id}", () => {
  it("ends another session of the user: its next request is 401, this one goes on", async () => {
    const mine = await sessionCookie(ws.userId);
    const theirs = await sessionCookie(ws.userId);
    expect((await account(theirs)).status).toBe(200);
    const r = await end(mine, await sessionIdOf(theirs));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ revoked: 1 });
    expect((await account(theirs)).status).toBe(401);
    expect((await account(mine)).status).toBe(200);
    // Ended already: 404, as another user's session or an unknown id is.
    expect((await end(mine, await sessionIdOf(theirs))).status).toBe(404);
    expect((await end(mine, await sessionIdOf(await sessionCookie(other.userId)))).status).toBe(404);
    expect((await end(mine, "ses_nope")).status).toBe(404);
    const [logged] = (await revokedAudits(ws.userId)).slice(-1);
    expect(logged.detail).toMatchObject({ revoked: 1, current: false });
  });

  it("the current session may end itself", async () => {
    const mine = await sessionCookie(ws.userId);
    expect((await end(mine, await sessionIdOf(mine))).status).toBe(200);
    expect((await account(mine)).status).toBe(401);
  });

  it("another user's session stays open when someone tries to end it", async () => {
    const theirs = await sessionCookie(other.userId);
    const mine = await sessionCookie(ws.userId);
    expect((await end(mine, await sessionIdOf(theirs))).status).toBe(404);
    expect((await account(theirs)).status).toBe(200);
  });
});

describe("POST /account/sessions/revoke-others", () => {
  it("ends every other session of the user and keeps the current one", async () => {
    const u = await makeWorkspace();
    const current = await sessionCookie(u.userId);
    const others = [await sessionCookie(u.userId), await sessionCookie(u.userId)];
    const stranger = await sessionCookie(other.userId);
    const r = await call(END_OTHERS, "POST", "/account/sessions/revoke-others", { cookie: current });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ revoked: 2 });
    for (const c of others) expect((await account(c)).status).toBe(401);
    expect((await account(current)).status).toBe(200);
    expect((await account(stranger)).status).toBe(200);
    const list = await call(LIST, "GET", "/account/sessions", { cookie: current });
    expect(list.body.sessions.map((s: { current: boolean }) => s.current)).toEqual([true]);
    expect((await call(END_OTHERS, "POST", "/account/sessions/revoke-others", { cookie: current })).body).toEqual({ revoked: 0 });
    expect((await revokedAudits(u.userId)).map((a) => a.detail)).toEqual([{ revoked: 2, others: true }]);
    expect((await call(END_OTHERS, "POST", "/account/sessions/revoke-others", { key: u.fullKey })).status).toBe(403);
  });
});
