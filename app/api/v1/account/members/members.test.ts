import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { leads, threadAssignments, users } from "@/db/schema";
import { newId } from "@/lib/ids";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { GET as ME } from "../route";
import { GET as LIST } from "./route";
import { DELETE as REMOVE, PATCH as CHANGE } from "./[userId]/route";
import { GET as LIST_INV, POST as INVITE } from "../invitations/route";
import { DELETE as REVOKE_ONE } from "../invitations/[id]/route";
import { POST as NEW_WS } from "../workspaces/route";
import { PATCH as RENAME_WS } from "../workspace/route";
import { PATCH as PROFILE } from "../profile/route";
import { POST as EMAIL } from "../email/route";
import { POST as PASSWORD } from "../password/route";
import { GET as LIST_LEADS } from "../../leads/route";

let ws: TestWorkspace;
let owner: { cookie: string; headers: Record<string, string> };

/** A signed-in member of `ws` (their first workspace is their own, so the request names ws). */
async function signedIn(userId: string) {
  return { cookie: await sessionCookie(userId), headers: { "x-workspace-id": ws.workspaceId } };
}

beforeEach(async () => {
  ws = await makeWorkspace();
  owner = await signedIn(ws.userId);
});

describe("GET /account/members", () => {
  it("lists the members with role, two-factor status and last activity", async () => {
    const m = await addMember(ws.workspaceId, "member");
    const r = await call(LIST, "GET", "/account/members", owner);
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(r.body.members.map((x: { userId: string }) => [x.userId, x]));
    expect(byId[ws.userId]).toMatchObject({ role: "owner", twoFactor: false, email: expect.stringContaining("@example.com") });
    expect(byId[ws.userId].lastActiveAt).not.toBeNull(); // the owner's session
    expect(byId[m.userId]).toMatchObject({ role: "member", lastActiveAt: null }); // never signed in nor used a key
    await call(LIST_LEADS, "GET", "/leads", { key: m.key });
    const again = await call(LIST, "GET", "/account/members", owner);
    expect(again.body.members.find((x: { userId: string }) => x.userId === m.userId).lastActiveAt).not.toBeNull();
  });

  it("is refused to a member and a client (403)", async () => {
    for (const role of ["member", "client"] as const) {
      const m = await addMember(ws.workspaceId, role);
      const r = await call(LIST, "GET", "/account/members", await signedIn(m.userId));
      expect(r.status).toBe(403);
      expect(r.body.code).toBe("FORBIDDEN");
    }
  });

  it("refuses an API key on every account-management route (403), even the owner's", async () => {
    const key = ws.fullKey;
    const p = { userId: ws.userId };
    const calls = [
      call(LIST, "GET", "/account/members", { key }),
      call(CHANGE, "PATCH", "/account/members/x", { key, params: p, body: { role: "admin" } }),
      call(REMOVE, "DELETE", "/account/members/x", { key, params: p }),
      call(LIST_INV, "GET", "/account/invitations", { key }),
      call(INVITE, "POST", "/account/invitations", { key, body: { email: "a@example.com", role: "member" } }),
      call(REVOKE_ONE, "DELETE", "/account/invitations/inv_x", { key, params: { id: "inv_x" } }),
      call(NEW_WS, "POST", "/account/workspaces", { key, body: { name: "K" } }),
      call(RENAME_WS, "PATCH", "/account/workspace", { key, body: { name: "K" } }),
      call(PROFILE, "PATCH", "/account/profile", { key, body: { name: "K" } }),
      call(EMAIL, "POST", "/account/email", { key, body: { email: "k@example.com", currentPassword: "password123" } }),
      call(PASSWORD, "POST", "/account/password", { key, body: { currentPassword: "password123", newPassword: "password456" } }),
    ];
    for (const r of await Promise.all(calls)) expect([r.status, r.body.code]).toEqual([403, "FORBIDDEN"]);
  });
});

describe("PATCH /account/members/{userId}", () => {
  it("lets an admin change members and clients, but not make or change an owner", async () => {
    const admin = await addMember(ws.workspaceId, "admin");
    const m = await addMember(ws.workspaceId, "member");
    const as = await signedIn(admin.userId);
    const down = await call(CHANGE, "PATCH", "", { ...as, params: { userId: m.userId }, body: { role: "client" } });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ userId: m.userId, role: "client" });
    const makeOwner = await call(CHANGE, "PATCH", "", { ...as, params: { userId: m.userId }, body: { role: "owner" } });
    expect(makeOwner.status).toBe(403);
    const demoteOwner = await call(CHANGE, "PATCH", "", { ...as, params: { userId: ws.userId }, body: { role: "member" } });
    expect(demoteOwner.status).toBe(403);
    const unknown = await call(CHANGE, "PATCH", "", { ...as, params: { userId: "usr_nobody" }, body: { role: "member" } });
    expect(unknown.status).toBe(404);
  });

  it("keeps the last owner: demoting or removing them is 409; with two owners both work", async () => {
    const demote = await call(CHANGE, "PATCH", "", { ...owner, params: { userId: ws.userId }, body: { role: "admin" } });
    expect([demote.status, demote.body.code]).toEqual([409, "CONFLICT"]);
    const leave = await call(REMOVE, "DELETE", "", { ...owner, params: { userId: ws.userId } });
    expect([leave.status, leave.body.code]).toEqual([409, "CONFLICT"]);

    const second = await addMember(ws.workspaceId, "admin");
    const promote = await call(CHANGE, "PATCH", "", { ...owner, params: { userId: second.userId }, body: { role: "owner" } });
    expect(promote.body.role).toBe("owner");
    const nowDemote = await call(CHANGE, "PATCH", "", { ...owner, params: { userId: ws.userId }, body: { role: "admin" } });
    expect(nowDemote.status).toBe(200);
    // The first owner is an admin now: the remaining owner is the last one again.
    const asSecond = await signedIn(second.userId);
    expect((await call(REMOVE, "DELETE", "", { ...asSecond, params: { userId: second.userId } })).status).toBe(409);
    const third = await addMember(ws.workspaceId, "owner");
    expect((await call(REMOVE, "DELETE", "", { ...asSecond, params: { userId: third.userId } })).status).toBe(200);
  });
});

describe("DELETE /account/members/{userId}", () => {
  it("ends the member's sessions and revokes their keys at once, unassigns them, and keeps what they sent", async () => {
    const m = await addMember(ws.workspaceId, "member");
    const theirs = await signedIn(m.userId);
    expect((await call(ME, "GET", "/account", theirs)).status).toBe(200);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: m.key })).status).toBe(200);
    const leadId = newId("lead");
    await getDb().insert(leads).values({ id: leadId, workspaceId: ws.workspaceId, email: "lead@example.com" });
    await getDb().insert(threadAssignments).values({ workspaceId: ws.workspaceId, leadId, userId: m.userId });

    const r = await call(REMOVE, "DELETE", "", { ...owner, params: { userId: m.userId } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ userId: m.userId, removed: true, keysRevoked: 1 });
    expect(r.body.sessionsEnded).toBeGreaterThanOrEqual(1);

    const me = await call(ME, "GET", "/account", theirs);
    expect(me.status).toBe(401);
    const key = await call(LIST_LEADS, "GET", "/leads", { key: m.key });
    expect(key.status).toBe(401);
    expect(await getDb().select().from(threadAssignments).where(eq(threadAssignments.userId, m.userId))).toEqual([]);
    expect((await getDb().select().from(users).where(eq(users.id, m.userId))).length).toBe(1); // the account stays
    const list = await call(LIST, "GET", "/account/members", owner);
    expect(list.body.members.map((x: { userId: string }) => x.userId)).not.toContain(m.userId);
  });

  it("lets anyone leave (a client too), and refuses removing others below admin", async () => {
    const client = await addMember(ws.workspaceId, "client");
    const member = await addMember(ws.workspaceId, "member");
    const asMember = await signedIn(member.userId);
    expect((await call(REMOVE, "DELETE", "", { ...asMember, params: { userId: client.userId } })).status).toBe(403);
    const left = await call(REMOVE, "DELETE", "", { ...(await signedIn(client.userId)), params: { userId: client.userId } });
    expect(left.status).toBe(200);
    const admin = await addMember(ws.workspaceId, "admin");
    const asAdmin = await signedIn(admin.userId);
    expect((await call(REMOVE, "DELETE", "", { ...asAdmin, params: { userId: ws.userId } })).status).toBe(403); // an owner
    expect((await call(REMOVE, "DELETE", "", { ...asAdmin, params: { userId: member.userId } })).status).toBe(200);
  });
});
