import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditLog, invitations } from "@/db/schema";
import { checkCredentials } from "@/lib/auth/users";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { startSmtpPeer, type SmtpPeer } from "@/test/peers/smtp";
import { GET as LIST_MEMBERS } from "../members/route";
import { DELETE as REMOVE, PATCH as CHANGE } from "../members/[userId]/route";
import { GET as LIST, POST as INVITE } from "./route";
import { DELETE as REVOKE } from "./[id]/route";
import { POST as ACCEPT } from "../../invitations/[token]/accept/route";

let ws: TestWorkspace;
let owner: { cookie: string; headers: Record<string, string> };
const IP = "203.0.113.7";

async function signedIn(userId: string, workspaceId = ws.workspaceId) {
  return { cookie: await sessionCookie(userId), headers: { "x-workspace-id": workspaceId, "x-forwarded-for": IP } };
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

/** Each public call from its own address, so that the per-IP counts of one test do not add up. */
let ipCounter = 0;
const freshIp = () => ({ "x-forwarded-for": `198.51.100.${(ipCounter++ % 250) + 1}` });

function accept(token: string, opts: { body?: unknown; cookie?: string; headers?: Record<string, string> } = {}) {
  return call(ACCEPT, "POST", `/invitations/${token}/accept`, {
    params: { token },
    body: opts.body ?? {},
    cookie: opts.cookie,
    headers: { ...freshIp(), ...opts.headers },
  });
}

async function invite(email: string, role = "member", as = owner) {
  return call(INVITE, "POST", "/account/invitations", { ...as, body: { email, role } });
}

beforeEach(async () => {
  ws = await makeWorkspace();
  owner = await signedIn(ws.userId);
});

describe("POST /account/invitations without a system mailer", () => {
  it("lets an admin not replace (and so revoke) an owner's pending invitation by inviting the same address again", async () => {
    const ownerInvite = await invite("next-owner@example.com", "owner");
    expect(ownerInvite.status).toBe(201);
    const admin = await signedIn((await addMember(ws.workspaceId, "admin")).userId);
    const again = await invite("next-owner@example.com", "member", admin);
    expect(again.status).toBe(403);
    const [row] = await getDb().select().from(invitations).where(eq(invitations.id, ownerInvite.body.id));
    expect(row.revokedAt).toBeNull();
  });

  it("answers the single-use link once, stores only its hash, and lists the invitation without it", async () => {
    const r = await invite("new@example.com", "client");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email: "new@example.com", role: "client", id: expect.stringMatching(/^inv_/) });
    expect(r.body.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    const expires = new Date(r.body.expiresAt).getTime() - Date.now();
    expect(expires).toBeGreaterThan(6.9 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(7 * 86_400_000);
    const token = tokenOf(r.body.url);
    const [row] = await getDb().select().from(invitations).where(eq(invitations.id, r.body.id));
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    const list = await call(LIST, "GET", "/account/invitations", owner);
    expect(list.body.invitations).toEqual([
      expect.objectContaining({
        id: r.body.id,
        email: "new@example.com",
        role: "client",
        invitedBy: expect.objectContaining({ userId: ws.userId }),
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(token);
  });

  it("refuses an address already a member (409), an owner invited by an admin (403), and replaces a pending one", async () => {
    const member = await addMember(ws.workspaceId, "member");
    const [{ email }] = await getDb().execute<{ email: string }>(sql`select email from users where id = ${member.userId}`);
    expect((await invite(email.toUpperCase())).status).toBe(409);
    const admin = await addMember(ws.workspaceId, "admin");
    expect((await invite("boss@example.com", "owner", await signedIn(admin.userId))).status).toBe(403);
    expect((await invite("boss@example.com", "owner")).status).toBe(201); // an owner may

    const first = await invite("again@example.com");
    const second = await invite("again@example.com", "admin");
    const list = await call(LIST, "GET", "/account/invitations", owner);
    expect(
      list.body.invitations.filter((i: { email: string }) => i.email === "again@example.com").map((i: { id: string }) => i.id),
    ).toEqual([second.body.id]);
    const old = await accept(tokenOf(first.body.url), { body: { password: "password123" } });
    expect([old.status, old.body.code]).toEqual([410, "GONE"]);
  });

  it("revokes a pending invitation of this workspace only (another workspace's id is 404)", async () => {
    const mine = await invite("x@example.com");
    const other = await makeWorkspace();
    const theirs = await call(INVITE, "POST", "/account/invitations", {
      ...(await signedIn(other.userId, other.workspaceId)),
      body: { email: "y@example.com", role: "member" },
    });
    expect((await call(REVOKE, "DELETE", "", { ...owner, params: { id: theirs.body.id } })).status).toBe(404);
    const r = await call(REVOKE, "DELETE", "", { ...owner, params: { id: mine.body.id } });
    expect(r.body).toEqual({ id: mine.body.id, revoked: true });
    expect((await call(REVOKE, "DELETE", "", { ...owner, params: { id: mine.body.id } })).status).toBe(404);
    expect((await accept(tokenOf(mine.body.url), { body: { password: "password123" } })).status).toBe(410);
    // The other workspace's invitation still works.
    expect((await accept(tokenOf(theirs.body.url), { body: { password: "password123" } })).status).toBe(200);
  });
});

describe("POST /invitations/{token}/accept", () => {
  it("creates the account of a new email, joins it with the invited role, and works once", async () => {
    const inv = await invite("fresh@example.com", "admin");
    const token = tokenOf(inv.body.url);
    const short = await accept(token, { body: { password: "short" } });
    expect([short.status, Object.keys(short.body.details.fieldErrors)]).toEqual([400, ["password"]]);
    const r = await accept(token, { body: { name: "Fresh Person", password: "fresh-password" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ userId: expect.stringMatching(/^usr_/), workspaceId: ws.workspaceId, role: "admin" });
    expect((await checkCredentials(getDb(), "fresh@example.com", "fresh-password"))?.name).toBe("Fresh Person");
    const members = await call(LIST_MEMBERS, "GET", "/account/members", owner);
    expect(members.body.members).toContainEqual(expect.objectContaining({ userId: r.body.userId, role: "admin" }));
    const again = await accept(token, { body: { password: "fresh-password" } });
    expect([again.status, again.body.code]).toEqual([410, "GONE"]);
  });

  it("answers 410 GONE for an unknown token and for an expired link (7 days on the injected clock)", async () => {
    const unknown = await accept("not-a-real-token-at-all", { body: { password: "password123" } });
    expect([unknown.status, unknown.body.code]).toEqual([410, "GONE"]);
    const clock = new ManualClock(new Date());
    useClock(clock);
    try {
      const inv = await invite("late@example.com");
      clock.advance(7 * 86_400_000 - 1000);
      const token = tokenOf(inv.body.url);
      const stillOpen = await accept(token, { body: { password: "short" } });
      expect(stillOpen.status).toBe(400); // not gone yet: it asks for a proper password
      clock.advance(2000);
      const late = await accept(token, { body: { password: "password123" } });
      expect([late.status, late.body.code]).toEqual([410, "GONE"]);
      expect(late.body.error).toContain("expired");
    } finally {
      useClock(systemClock);
    }
  });

  it("joins an existing account signed in with the invited email; without a session it must sign in first (no password is tried); another email is 403", async () => {
    const existing = await addMember((await makeWorkspace()).workspaceId, "member");
    const [{ email }] = await getDb().execute<{ email: string }>(sql`select email from users where id = ${existing.userId}`);
    const first = await invite(email, "member");
    const stranger = await addMember((await makeWorkspace()).workspaceId, "member");
    const wrongUser = await accept(tokenOf(first.body.url), { cookie: await sessionCookie(stranger.userId) });
    expect(wrongUser.status).toBe(403);
    expect(wrongUser.body.error).toContain(email);
    const withSession = await accept(tokenOf(first.body.url), { cookie: await sessionCookie(existing.userId) });
    expect(withSession.body).toEqual({ userId: existing.userId, workspaceId: ws.workspaceId, role: "member" });

    // Leave again: without a session even the right password is refused (the sign-in alone checks it).
    const asThem = await signedIn(existing.userId);
    expect((await call(REMOVE, "DELETE", "", { ...asThem, params: { userId: existing.userId } })).status).toBe(200);
    const second = await invite(email, "client");
    const noPassword = await accept(tokenOf(second.body.url));
    expect(noPassword.status).toBe(403);
    expect(noPassword.body.error).toMatch(/sign in first/i);
    expect((await accept(tokenOf(second.body.url), { body: { password: "wrong-password" } })).status).toBe(403);
    const byPassword = await accept(tokenOf(second.body.url), { body: { password: "password123" } });
    expect(byPassword.status).toBe(403);
    const signedInAgain = await accept(tokenOf(second.body.url), { cookie: await sessionCookie(existing.userId) });
    expect(signedInAgain.body).toEqual({ userId: existing.userId, workspaceId: ws.workspaceId, role: "client" });
  });
});

describe("with a system mailer (SYSTEM_SMTP_URL)", () => {
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer({ users: { system: "s3cret" } });
  });
  afterEach(() => {
    delete process.env.SYSTEM_SMTP_URL;
  });
  afterAll(() => peer.close());

  it("emails the link and does not answer it", async () => {
    process.env.SYSTEM_SMTP_URL = `smtp://system:s3cret@${peer.host}:${peer.port}`;
    const r = await invite("mailed@example.com", "member");
    expect(r.status).toBe(201);
    expect(r.body.url).toBeNull();
    const mail = peer.received.find((m) => m.to.includes("mailed@example.com"));
    expect(mail?.parsed.subject).toContain("invited you to");
    const link = /https?:\/\/\S+\/invite\/([A-Za-z0-9_-]+)/.exec(mail?.parsed.text ?? "");
    expect(link).not.toBeNull();
    const joined = await accept(link![1], { body: { password: "password123" } });
    expect(joined.body.role).toBe("member");
  });
});

describe("the audit log of members", () => {
  it("records invited, joined, role_changed and removed with actor, target and IP, and never a token", async () => {
    const inv = await invite("audited@example.com", "member");
    const token = tokenOf(inv.body.url);
    const joined = await accept(token, { body: { password: "password123" }, headers: { "x-forwarded-for": "192.0.2.44" } });
    const userId = joined.body.userId;
    await call(CHANGE, "PATCH", "", { ...owner, params: { userId }, body: { role: "client" } });
    await call(REMOVE, "DELETE", "", { ...owner, params: { userId } });
    const rows = await getDb().select().from(auditLog).where(eq(auditLog.workspaceId, ws.workspaceId));
    const of = (action: string) => rows.find((r) => r.action === action);
    expect(of("member.invited")).toMatchObject({
      actorType: "user",
      actorId: ws.userId,
      targetType: "invitation",
      targetId: inv.body.id,
      targetLabel: "audited@example.com",
      ip: IP,
      detail: { role: "member", replacedInvitations: 0 },
    });
    expect(of("member.joined")).toMatchObject({ actorId: userId, targetId: userId, targetLabel: "audited@example.com", ip: "192.0.2.44" });
    expect(of("member.role_changed")).toMatchObject({
      actorId: ws.userId,
      targetId: userId,
      ip: IP,
      detail: { from: "member", to: "client" },
    });
    expect(of("member.removed")).toMatchObject({
      actorId: ws.userId,
      targetId: userId,
      ip: IP,
      detail: expect.objectContaining({ role: "client" }),
    });
    const everything = JSON.stringify(await getDb().select().from(auditLog));
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(createHash("sha256").update(token).digest("hex"));
  });
});
