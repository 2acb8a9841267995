import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog, users, workspaces } from "@/db/schema";
import { WORKSPACE_COOKIE } from "@/lib/auth/secrets";
import { signIn } from "@/lib/auth/sign-in";
import { totpCode } from "@/lib/auth/totp";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { cookieFor, enrol } from "@/test/two-factor-setup";
import { GET as ACCOUNT } from "../../account/route";
import { POST as SETUP } from "../../account/two-factor/setup/route";
import { POST as ENABLE } from "../../account/two-factor/enable/route";
import { DELETE as DISABLE } from "../../account/two-factor/route";
import { GET as CAMPAIGNS } from "../../campaigns/route";
import { DELETE as REMOVE_MEMBER } from "../../account/members/[userId]/route";
import { GET, PUT } from "./route";

const clock = new ManualClock(new Date("2026-11-02T09:00:10Z"));
let ws: TestWorkspace;
let ownerCookie: string;
let admin: { userId: string; cookie: string };
let member: { userId: string; cookie: string };
let client: { userId: string; cookie: string };
let enrolledMember: { userId: string; cookie: string; secret: string };

const put = (cookie: string, requireTwoFactor: boolean) => call(PUT, "PUT", "/settings/security", { cookie, body: { requireTwoFactor } });
const account = (cookie: string) => call(ACCOUNT, "GET", "/account", { cookie });

/** Members have a workspace of their own too: their cookies pick this one, as the workspace switcher does. */
const inWs = (cookie: string) => `${cookie}; ${WORKSPACE_COOKIE}=${ws.workspaceId}`;

async function withRole(role: "admin" | "member" | "client") {
  const m = await addMember(ws.workspaceId, role);
  return { userId: m.userId, cookie: inWs(await sessionCookie(m.userId)) };
}

async function emailOf(userId: string): Promise<string> {
  const [u] = await getDb().select({ email: users.email }).from(users).where(eq(users.id, userId));
  return u.email;
}

beforeAll(async () => {
  useClock(clock);
  ws = await makeWorkspace();
  ownerCookie = await sessionCookie(ws.userId);
  admin = await withRole("admin");
  member = await withRole("member");
  client = await withRole("client");
  const m = await withRole("member");
  const tf = await enrol(m.cookie, clock);
  enrolledMember = { ...m, secret: tf.secret };
});
afterAll(() => useClock(systemClock));

describe("GET /settings/security", () => {
  it("any role may read it (off by default); an API key may not", async () => {
    for (const cookie of [ownerCookie, admin.cookie, member.cookie, client.cookie]) {
      const r = await call(GET, "GET", "/settings/security", { cookie });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ requireTwoFactor: false });
    }
    expect((await call(GET, "GET", "/settings/security", { key: ws.fullKey })).status).toBe(403);
  });
});

describe("PUT /settings/security", () => {
  it("is the owner's alone: an admin, a member and a client get 403, and nothing changes", async () => {
    for (const c of [admin, member, client]) expect((await put(c.cookie, true)).status).toBe(403);
    expect((await call(PUT, "PUT", "/settings/security", { key: ws.fullKey, body: { requireTwoFactor: true } })).status).toBe(403);
    expect((await call(GET, "GET", "/settings/security", { cookie: ownerCookie })).body.requireTwoFactor).toBe(false);
  });

  it("an owner without two-factor sign-in of their own cannot require it (409)", async () => {
    const r = await put(ownerCookie, true);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/your own account first/);
  });

  it("turning it on ends the sessions of every member without two-factor; enrolled ones keep theirs", async () => {
    const ownerTf = await enrol(ownerCookie, clock);
    expect(ownerTf.recoveryCodes).toHaveLength(10);
    const r = await put(ownerCookie, true);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ requireTwoFactor: true });
    for (const c of [admin, member, client]) expect((await account(c.cookie)).status).toBe(401);
    expect((await account(enrolledMember.cookie)).status).toBe(200);
    expect((await account(ownerCookie)).status).toBe(200);
    const [w] = await getDb().select({ settings: workspaces.settings }).from(workspaces).where(eq(workspaces.id, ws.workspaceId));
    expect(w.settings.requireTwoFactor).toBe(true);
    const [logged] = await getDb()
      .select()
      .from(auditLog)
      .where(sql`${auditLog.workspaceId} = ${ws.workspaceId} and ${auditLog.action} = 'settings.changed'`);
    expect(logged).toMatchObject({
      actorId: ws.userId,
      targetType: "workspace",
      targetId: ws.workspaceId,
      detail: { setting: "requireTwoFactor", before: false, after: true, membersSignedOut: 3, sessionsEnded: 3 },
    });
    // The same value again changes nothing and logs nothing.
    expect((await put(ownerCookie, true)).status).toBe(200);
    const rows = await getDb().select().from(auditLog).where(sql`${auditLog.action} = 'settings.changed'`);
    expect(rows).toHaveLength(1);
  });

  it("a member without two-factor who signs in again may only enrol: 403 elsewhere, 200 on their own account routes", async () => {
    const signedIn = await signIn(getDb(), { email: await emailOf(member.userId), password: "password123", ip: "192.0.2.30" }, clock.now());
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.message}`);
    const cookie = inWs(await cookieFor(member.userId, signedIn.sid));
    const blocked = await call(CAMPAIGNS, "GET", "/campaigns", { cookie });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toMatch(/requires two-factor sign-in/);
    expect((await account(cookie)).status).toBe(200);
    expect((await call(GET, "GET", "/settings/security", { cookie })).status).toBe(200);
    const setup = await call(SETUP, "POST", "/account/two-factor/setup", { cookie });
    expect(setup.status).toBe(200);
    const code = await totpCode(setup.body.secret, clock.now());
    expect((await call(ENABLE, "POST", "/account/two-factor/enable", { cookie, body: { code } })).status).toBe(200);
    // Enrolled: the same session now reaches the rest of the workspace.
    expect((await call(CAMPAIGNS, "GET", "/campaigns", { cookie })).status).toBe(200);
    // …and cannot turn two-factor off again while the workspace requires it.
    clock.advance(60_000);
    const off = await call(DISABLE, "DELETE", "/account/two-factor", {
      cookie,
      body: { code: await totpCode(setup.body.secret, clock.now()) },
    });
    expect(off.status).toBe(409);
  });

  it("an admin without two-factor, signed in again, cannot manage members until enrolled (403, nobody removed)", async () => {
    const signedIn = await signIn(getDb(), { email: await emailOf(admin.userId), password: "password123", ip: "192.0.2.31" }, clock.now());
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.message}`);
    const cookie = inWs(await cookieFor(admin.userId, signedIn.sid));
    const removal = await call(REMOVE_MEMBER, "DELETE", "", { cookie, params: { userId: client.userId } });
    expect(removal.status).toBe(403);
    expect(removal.body.error).toMatch(/requires two-factor sign-in/);
    const [still] = await getDb().execute(
      sql`select 1 from memberships where workspace_id = ${ws.workspaceId} and user_id = ${client.userId}`,
    );
    expect(still).toBeTruthy();
  });

  it("turning it off ends no session", async () => {
    const before = await account(enrolledMember.cookie);
    expect(before.status).toBe(200);
    const r = await put(ownerCookie, false);
    expect(r.body).toEqual({ requireTwoFactor: false });
    expect((await account(enrolledMember.cookie)).status).toBe(200);
    expect((await account(ownerCookie)).status).toBe(200);
    const rows = await getDb().select().from(auditLog).where(sql`${auditLog.action} = 'settings.changed'`).orderBy(auditLog.at);
    expect(rows.at(-1)?.detail).toMatchObject({ before: true, after: false, sessionsEnded: 0 });
  });

  it("wants a boolean", async () => {
    const r = await call(PUT, "PUT", "/settings/security", { cookie: ownerCookie, body: { requireTwoFactor: "yes" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
  });
});
