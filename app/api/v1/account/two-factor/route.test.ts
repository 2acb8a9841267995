import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog, recoveryCodes, users, workspaces } from "@/db/schema";
import { signIn } from "@/lib/auth/sign-in";
import { hashRecoveryCode, totpCode } from "@/lib/auth/totp";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { enrol } from "@/test/two-factor-setup";
import { POST as ENABLE } from "./enable/route";
import { DELETE as DISABLE, GET as STATUS } from "./route";
import { POST as SETUP } from "./setup/route";

const clock = new ManualClock(new Date("2026-11-02T09:00:10Z"));
let ws: TestWorkspace;
let cookie: string;
/** Every secret and recovery code the routes handed out, to prove none reached the audit log. */
const handedOut: string[] = [];

async function userRow(userId: string) {
  const [u] = await getDb().select().from(users).where(eq(users.id, userId));
  return u;
}

beforeAll(async () => {
  useClock(clock);
  ws = await makeWorkspace();
  cookie = await sessionCookie(ws.userId);
});
afterAll(() => useClock(systemClock));

describe("two-factor enrolment", () => {
  it("API keys are refused: these are the signed-in user's own routes", async () => {
    expect((await call(SETUP, "POST", "/account/two-factor/setup", { key: ws.fullKey })).status).toBe(403);
    expect((await call(STATUS, "GET", "/account/two-factor", { key: ws.readKey })).status).toBe(403);
  });

  it("setup gives a base32 secret and its otpauth URL, sealed in the user's row and not in force; again replaces it", async () => {
    const first = await call(SETUP, "POST", "/account/two-factor/setup", { cookie });
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Outreach:.+secret=[A-Z2-7]{32}&issuer=Outreach/);
    const row = await userRow(ws.userId);
    expect(row.twoFactorSecret).toMatch(/^v1:/);
    expect(row.twoFactorSecret).not.toContain(first.body.secret);
    expect(row.twoFactorEnabledAt).toBeNull();
    expect((await call(STATUS, "GET", "/account/two-factor", { cookie })).body).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    // Not in force: signing in needs no code yet.
    const plain = await signIn(getDb(), { email: row.email, password: "password123", ip: "192.0.2.1" }, clock.now());
    expect(plain).toMatchObject({ ok: true, via: "password" });
    const second = await call(SETUP, "POST", "/account/two-factor/setup", { cookie });
    expect(second.body.secret).not.toBe(first.body.secret);
    handedOut.push(first.body.secret, second.body.secret);
    // A code of the replaced secret no longer enables.
    const stale = await call(ENABLE, "POST", "/account/two-factor/enable", {
      cookie,
      body: { code: await totpCode(first.body.secret, clock.now()) },
    });
    expect(stale.status).toBe(400);
  });

  it("enable with a wrong code is 400 on `code`; with the current one it returns 10 recovery codes, stored hashed", async () => {
    const setup = await call(SETUP, "POST", "/account/two-factor/setup", { cookie });
    handedOut.push(setup.body.secret);
    const good = await totpCode(setup.body.secret, clock.now());
    const bad = await call(ENABLE, "POST", "/account/two-factor/enable", {
      cookie,
      body: { code: good === "123456" ? "654321" : "123456" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "VALIDATION_ERROR", details: { fieldErrors: { code: [expect.any(String)] } } });
    expect((await call(ENABLE, "POST", "/account/two-factor/enable", { cookie, body: {} })).status).toBe(400);
    const ok = await call(ENABLE, "POST", "/account/two-factor/enable", { cookie, body: { code: good } });
    expect(ok.status).toBe(200);
    const codes: string[] = ok.body.recoveryCodes;
    handedOut.push(...codes);
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-9]{10}$/);
    const stored = await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, ws.userId));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(codes.map(hashRecoveryCode).sort());
    expect((await userRow(ws.userId)).twoFactorEnabledAt?.toISOString()).toBe(clock.now().toISOString());
    const status = await call(STATUS, "GET", "/account/two-factor", { cookie });
    expect(status.body).toEqual({ enabled: true, enabledAt: clock.now().toISOString(), recoveryCodesLeft: 10 });
    // Once on: setup and enable are conflicts (turn it off first).
    expect((await call(SETUP, "POST", "/account/two-factor/setup", { cookie })).status).toBe(409);
    expect((await call(ENABLE, "POST", "/account/two-factor/enable", { cookie, body: { code: good } })).status).toBe(409);
    const [logged] = await getDb()
      .select()
      .from(auditLog)
      .where(sql`${auditLog.subjectUserId} = ${ws.userId} and ${auditLog.action} = 'auth.2fa_enabled'`);
    expect(logged).toMatchObject({ workspaceId: null, detail: { recoveryCount: 10 } });
  });

  it("after enabling, signing in needs the code", async () => {
    const [u] = await getDb().select({ email: users.email }).from(users).where(eq(users.id, ws.userId));
    const r = await signIn(getDb(), { email: u.email, password: "password123", ip: "192.0.2.2" }, clock.now());
    expect(r).toMatchObject({ ok: false, reason: "two_factor_required" });
  });

  it("turning off needs a valid code (a recovery code will do); the secret and codes go", async () => {
    const wrong = await call(DISABLE, "DELETE", "/account/two-factor", { cookie, body: { code: "ZZZZZZZZZZ" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.fieldErrors.code).toBeDefined();
    const off = await call(DISABLE, "DELETE", "/account/two-factor", { cookie, body: { code: handedOut.at(-1) } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
    const row = await userRow(ws.userId);
    expect(row.twoFactorSecret).toBeNull();
    expect(row.twoFactorEnabledAt).toBeNull();
    expect(await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, ws.userId))).toHaveLength(0);
    expect((await call(DISABLE, "DELETE", "/account/two-factor", { cookie, body: { code: "123456" } })).status).toBe(409);
    const [logged] = await getDb()
      .select()
      .from(auditLog)
      .where(sql`${auditLog.subjectUserId} = ${ws.userId} and ${auditLog.action} = 'auth.2fa_disabled'`);
    expect(logged.detail).toEqual({ via: "recovery" });
  });

  it("turning off is refused (409) while a workspace of the user requires two-factor sign-in", async () => {
    // One code per step and user: the earlier enrolment used this step's.
    clock.advance(60_000);
    const tf = await enrol(cookie, clock);
    handedOut.push(tf.secret, ...tf.recoveryCodes);
    await getDb()
      .update(workspaces)
      .set({ settings: sql`${workspaces.settings} || '{"requireTwoFactor": true}'::jsonb` })
      .where(eq(workspaces.id, ws.workspaceId));
    const refused = await call(DISABLE, "DELETE", "/account/two-factor", {
      cookie,
      body: { code: await totpCode(tf.secret, clock.now()) },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/requires two-factor sign-in for every member/);
    expect((await userRow(ws.userId)).twoFactorEnabledAt).not.toBeNull();
    await getDb()
      .update(workspaces)
      .set({ settings: sql`${workspaces.settings} - 'requireTwoFactor'` })
      .where(eq(workspaces.id, ws.workspaceId));
  });

  it("no secret or recovery code ever reaches the audit log", async () => {
    const rows = await getDb().select().from(auditLog);
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows).toUpperCase();
    for (const s of handedOut) expect(text).not.toContain(s.toUpperCase());
    expect(text).not.toContain("V1:");
  });
});
