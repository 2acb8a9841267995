import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditLog, userSessions, users } from "@/db/schema";
import { checkCredentials } from "@/lib/auth/users";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { startSmtpPeer, type SmtpPeer } from "@/test/peers/smtp";
import { GET as ME } from "../route";
import { PATCH as PROFILE } from "./route";
import { POST as NEW_WS } from "../workspaces/route";
import { PATCH as RENAME_WS } from "../workspace/route";
import { POST as EMAIL } from "../email/route";
import { POST as CONFIRM_EMAIL } from "../email/confirm/[token]/route";
import { POST as PASSWORD } from "../password/route";
import { POST as ASK_RESET } from "../../password-reset/route";
import { POST as RESET } from "../../password-reset/[token]/route";

let ws: TestWorkspace;
let ownerEmail: string;
let owner: { cookie: string; headers: Record<string, string> };
let ipCounter = 0;
const freshIp = () => ({ "x-forwarded-for": `198.51.100.${(ipCounter++ % 250) + 1}` });
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

async function signedIn(userId: string) {
  return { cookie: await sessionCookie(userId), headers: { "x-workspace-id": ws.workspaceId } };
}

async function openSessions(userId: string) {
  return getDb()
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));
}

beforeEach(async () => {
  ws = await makeWorkspace();
  ownerEmail = (await getDb().select().from(users).where(eq(users.id, ws.userId)))[0].email;
  owner = await signedIn(ws.userId);
});

describe("workspaces and profile", () => {
  it("lets any signed-in user (a client too) create a workspace they own", async () => {
    const client = await addMember(ws.workspaceId, "client");
    const r = await call(NEW_WS, "POST", "/account/workspaces", { ...(await signedIn(client.userId)), body: { name: "  Client Co  " } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^ws_/), name: "Client Co", role: "owner" });
    const me = await call(ME, "GET", "/account", { cookie: await sessionCookie(client.userId), headers: { "x-workspace-id": r.body.id } });
    expect(me.body.workspace.id).toBe(r.body.id);
    const [row] = await getDb().select().from(auditLog).where(eq(auditLog.workspaceId, r.body.id));
    expect(row).toMatchObject({ action: "workspace.created", actorId: client.userId, targetLabel: "Client Co" });
  });

  it("renames the workspace for an admin, not for a member", async () => {
    const member = await addMember(ws.workspaceId, "member");
    expect(
      (await call(RENAME_WS, "PATCH", "/account/workspace", { ...(await signedIn(member.userId)), body: { name: "No" } })).status,
    ).toBe(403);
    const r = await call(RENAME_WS, "PATCH", "/account/workspace", { ...owner, body: { name: "Renamed" } });
    expect(r.body).toEqual({ id: ws.workspaceId, name: "Renamed" });
    const rows = await getDb().select().from(auditLog).where(eq(auditLog.workspaceId, ws.workspaceId));
    expect(rows.find((x) => x.action === "settings.changed")?.detail).toEqual({ name: { from: expect.any(String), to: "Renamed" } });
  });

  it("changes the user's name", async () => {
    const r = await call(PROFILE, "PATCH", "/account/profile", { ...owner, body: { name: " Ada " } });
    expect(r.body).toEqual({ userId: ws.userId, email: ownerEmail, name: "Ada" });
    expect((await call(PROFILE, "PATCH", "/account/profile", { ...owner, body: { name: "" } })).body.name).toBeNull();
  });
});

describe("email change", () => {
  it("needs the current password, answers the link without a mailer, and switches on confirmation once", async () => {
    const wrong = await call(EMAIL, "POST", "/account/email", {
      ...owner,
      body: { email: "new-owner@example.com", currentPassword: "nope" },
    });
    expect([wrong.status, Object.keys(wrong.body.details.fieldErrors)]).toEqual([400, ["currentPassword"]]);
    const r = await call(EMAIL, "POST", "/account/email", {
      ...owner,
      body: { email: "new-owner@example.com", currentPassword: "password123" },
    });
    expect(r.body).toMatchObject({ newEmail: "new-owner@example.com", sent: false, url: expect.stringContaining("/confirm-email/") });
    const token = tokenOf(r.body.url);
    const ok = await call(CONFIRM_EMAIL, "POST", "", { params: { token }, headers: freshIp() });
    expect(ok.body).toEqual({ userId: ws.userId, email: "new-owner@example.com" });
    expect(await checkCredentials(getDb(), "new-owner@example.com", "password123")).toBeDefined();
    const again = await call(CONFIRM_EMAIL, "POST", "", { params: { token }, headers: freshIp() });
    expect([again.status, again.body.code]).toEqual([410, "GONE"]);
  });

  it("spends the reset links sent to the old address when the email changes", async () => {
    const user = await addMember(ws.workspaceId, "member");
    const me = await signedIn(user.userId);
    const [{ email }] = await getDb().select({ email: users.email }).from(users).where(eq(users.id, user.userId));
    // A reset link sent to the old address (as the emailed flow stores it: a hash, an hour to live).
    await getDb().execute(
      sql`insert into user_tokens (id, user_id, kind, token_hash, expires_at) values (${`utk_${Date.now()}`}, ${user.userId}, 'password_reset', ${`h-${Date.now()}`}, now() + interval '1 hour')`,
    );
    expect(email).toContain("@");
    const pendingReset = () =>
      getDb().execute(sql`select 1 from user_tokens where user_id = ${user.userId} and kind = 'password_reset' and used_at is null`);
    expect((await pendingReset()).length).toBe(1);
    const change = await call(EMAIL, "POST", "/account/email", {
      ...me,
      body: { email: `moved-${Date.now()}@example.com`, currentPassword: "password123" },
    });
    expect(change.status).toBe(200);
    const ok = await call(CONFIRM_EMAIL, "POST", "", { params: { token: tokenOf(change.body.url) }, headers: freshIp() });
    expect(ok.status).toBe(200);
    expect((await pendingReset()).length).toBe(0);
  });

  it("is 409 when the address is taken, also when it was taken meanwhile", async () => {
    const other = await addMember(ws.workspaceId, "member");
    const [o] = await getDb().select().from(users).where(eq(users.id, other.userId));
    expect(
      (await call(EMAIL, "POST", "/account/email", { ...owner, body: { email: o.email, currentPassword: "password123" } })).status,
    ).toBe(409);
    const r = await call(EMAIL, "POST", "/account/email", {
      ...owner,
      body: { email: "wanted@example.com", currentPassword: "password123" },
    });
    await getDb().update(users).set({ email: "wanted@example.com" }).where(eq(users.id, other.userId));
    const late = await call(CONFIRM_EMAIL, "POST", "", { params: { token: tokenOf(r.body.url) }, headers: freshIp() });
    expect(late.status).toBe(409);
  });
});

describe("POST /account/password", () => {
  it("refuses a wrong current password (400 on currentPassword) and then ends the other sessions, not this one", async () => {
    const other = await signedIn(ws.userId);
    const wrong = await call(PASSWORD, "POST", "/account/password", {
      ...owner,
      body: { currentPassword: "bad", newPassword: "password456" },
    });
    expect([wrong.status, wrong.body.code, Object.keys(wrong.body.details.fieldErrors)]).toEqual([
      400,
      "VALIDATION_ERROR",
      ["currentPassword"],
    ]);
    const short = await call(PASSWORD, "POST", "/account/password", {
      ...owner,
      body: { currentPassword: "password123", newPassword: "x" },
    });
    expect(Object.keys(short.body.details.fieldErrors)).toEqual(["newPassword"]);
    const r = await call(PASSWORD, "POST", "/account/password", {
      ...owner,
      body: { currentPassword: "password123", newPassword: "password456" },
    });
    expect(r.body).toEqual({ changed: true, otherSessionsEnded: 1 });
    expect((await call(ME, "GET", "/account", other)).status).toBe(401);
    expect((await call(ME, "GET", "/account", owner)).status).toBe(200);
    expect(await checkCredentials(getDb(), ownerEmail, "password456")).toBeDefined();
    const [row] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, ws.userId), eq(auditLog.action, "auth.password_changed")));
    expect(JSON.stringify(row)).not.toContain("password456");
  });
});

describe("password reset", () => {
  it("without a mailer answers 202 { sent: false } and sends nothing", async () => {
    const r = await call(ASK_RESET, "POST", "/password-reset", { body: { email: ownerEmail }, headers: freshIp() });
    expect([r.status, r.body]).toEqual([202, { sent: false }]);
  });

  describe("with the system mailer", () => {
    let peer: SmtpPeer;
    beforeAll(async () => {
      peer = await startSmtpPeer({ users: { system: "s3cret" } });
    });
    beforeEach(() => {
      process.env.SYSTEM_SMTP_URL = `smtp://system:s3cret@${peer.host}:${peer.port}`;
    });
    afterEach(() => {
      delete process.env.SYSTEM_SMTP_URL;
    });
    afterAll(() => peer.close());

    /** The reset email is sent in the background: the first message to `to` once it has arrived. */
    async function mailTo(to: string) {
      for (let i = 0; i < 100; i++) {
        const found = peer.received.find((m) => m.to.includes(to));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no email to ${to} arrived`);
    }

    it("emails a single-use link that sets the password and ends every session; unknown addresses look the same", async () => {
      const unknown = await call(ASK_RESET, "POST", "/password-reset", { body: { email: "nobody@example.com" }, headers: freshIp() });
      expect([unknown.status, unknown.body]).toEqual([202, { sent: true }]);

      const r = await call(ASK_RESET, "POST", "/password-reset", { body: { email: ownerEmail.toUpperCase() }, headers: freshIp() });
      expect([r.status, r.body]).toEqual([202, { sent: true }]);
      const mail = await mailTo(ownerEmail);
      // Sent after the unknown address's request was answered: had that one sent anything, it would be here by now.
      expect(peer.received.filter((m) => m.to.includes("nobody@example.com"))).toEqual([]);
      expect(mail?.parsed.subject).toBe("Reset your Outreach password");
      const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail?.parsed.text ?? "")?.[1] ?? "";
      expect(token).toHaveLength(43);

      const short = await call(RESET, "POST", "", { params: { token }, body: { password: "x" }, headers: freshIp() });
      expect(short.status).toBe(400);
      const ok = await call(RESET, "POST", "", { params: { token }, body: { password: "brand-new-pass" }, headers: freshIp() });
      expect(ok.body).toEqual({ reset: true });
      expect(await openSessions(ws.userId)).toEqual([]);
      expect((await call(ME, "GET", "/account", owner)).status).toBe(401);
      expect(await checkCredentials(getDb(), ownerEmail, "brand-new-pass")).toBeDefined();
      expect(await checkCredentials(getDb(), ownerEmail, "password123")).toBeUndefined();
      const again = await call(RESET, "POST", "", { params: { token }, body: { password: "another-pass" }, headers: freshIp() });
      expect([again.status, again.body.code]).toEqual([410, "GONE"]);
      const rows = await getDb().select().from(auditLog).where(eq(auditLog.subjectUserId, ws.userId));
      expect(rows.find((x) => x.action === "auth.password_reset")?.detail).toMatchObject({ via: "link" });
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it("expires a link after an hour (injected clock) and refuses an unknown one", async () => {
      const clock = new ManualClock(new Date());
      useClock(clock);
      try {
        await call(ASK_RESET, "POST", "/password-reset", { body: { email: ownerEmail }, headers: freshIp() });
        const mail = await mailTo(ownerEmail);
        const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail?.parsed.text ?? "")?.[1] ?? "";
        clock.advance(3_600_000 + 1000);
        const late = await call(RESET, "POST", "", { params: { token }, body: { password: "brand-new-pass" }, headers: freshIp() });
        expect([late.status, late.body.code]).toEqual([410, "GONE"]);
        const unknown = await call(RESET, "POST", "", {
          params: { token: "nope" },
          body: { password: "brand-new-pass" },
          headers: freshIp(),
        });
        expect(unknown.status).toBe(410);
      } finally {
        useClock(systemClock);
      }
    });

    it("emails the email-change link to the new address instead of answering it", async () => {
      const r = await call(EMAIL, "POST", "/account/email", {
        ...owner,
        body: { email: "moved@example.com", currentPassword: "password123" },
      });
      expect(r.body).toMatchObject({ sent: true, url: null });
      const mail = peer.received.find((m) => m.to.includes("moved@example.com"));
      const token = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(mail?.parsed.text ?? "")?.[1] ?? "";
      expect((await call(CONFIRM_EMAIL, "POST", "", { params: { token }, headers: freshIp() })).body.email).toBe("moved@example.com");
    });
  });
});
