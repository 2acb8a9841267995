import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { audit, auditAccount } from "@/lib/audit/record";
import { ManualClock } from "@/lib/clock";
import type { Ctx } from "@/lib/ctx";
import { stderrLogger } from "@/lib/log";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { GET as AUDIT } from "./route";

let ws: TestWorkspace;
let other: TestWorkspace;
let ownerCookie: string;
let member: { userId: string; key: string };
let admin: { userId: string; key: string };
const DAY = 86_400_000;
const base = Date.parse("2026-10-01T12:00:00Z");

/** A request context of the workspace's owner (or another actor) at a fixed time, as audit() receives. */
function ctxAt(at: number, actor: Ctx["actor"], workspaceId = ws.workspaceId): Ctx {
  return { workspaceId, actor, db: getDb(), clock: new ManualClock(new Date(at)), log: stderrLogger, ip: "192.0.2.50" };
}

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  ownerCookie = await sessionCookie(ws.userId);
  member = await addMember(ws.workspaceId, "member");
  admin = await addMember(ws.workspaceId, "admin");
  const owner = { type: "session", userId: ws.userId, role: "owner" } as const;
  // Ten days of one webhook.created each, newest last, by the owner.
  for (let d = 0; d < 10; d++)
    await audit(ctxAt(base + d * DAY, owner), "webhook.created", { type: "webhook", id: `whk_${d}`, label: `u${d}` });
  await audit(ctxAt(base + 3 * DAY + 1000, { type: "session", userId: admin.userId, role: "admin" }), "campaign.deleted", {
    type: "campaign",
    id: "cmp_x",
    label: "Old",
  });
  // Another workspace's row never shows.
  await audit(ctxAt(base, { type: "session", userId: other.userId, role: "owner" }, other.workspaceId), "campaign.deleted", {
    type: "campaign",
    label: "Theirs",
  });
});

const list = (qs: string, opts: Parameters<typeof call>[3] = { cookie: ownerCookie }) =>
  call(AUDIT, "GET", `/account/audit-log${qs}`, opts);

describe("GET /account/audit-log", () => {
  it("lists the workspace's rows newest first, paged (50 by default, at most 200)", async () => {
    const all = await list("");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 50 });
    const mine = all.body.entries.filter((e: { action: string }) => e.action === "webhook.created" || e.action === "campaign.deleted");
    expect(mine).toHaveLength(11);
    expect(mine.map((e: { target: { label: string } }) => e.target.label).slice(0, 3)).toEqual(["u9", "u8", "u7"]);
    expect(all.body.entries.some((e: { target: { label: string } | null }) => e.target?.label === "Theirs")).toBe(false);
    expect(mine[0]).toMatchObject({ actor: { type: "user", id: ws.userId }, ip: "192.0.2.50", detail: {} });

    const p2 = await list("?action=webhook.created&limit=4&page=2");
    expect(p2.body).toMatchObject({ page: 2, limit: 4, total: 10 });
    expect(p2.body.entries.map((e: { target: { id: string } }) => e.target.id)).toEqual(["whk_5", "whk_4", "whk_3", "whk_2"]);
    expect((await list("?limit=201")).status).toBe(400);
    for (const bad of ["?page=0", "?page=x", "?from=yesterday", "?to=2026-13-01", "?action=nope", "?from=2026-10-05&to=2026-10-04"]) {
      const r = await list(bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("filters by action, actor and date range (a bare date's `to` includes that day)", async () => {
    const byAdmin = await list(`?actorId=${admin.userId}`);
    expect(byAdmin.body.entries.map((e: { action: string }) => e.action)).toEqual(["campaign.deleted"]);
    const days = await list("?action=webhook.created&from=2026-10-03&to=2026-10-05");
    expect(days.body.entries.map((e: { target: { id: string } }) => e.target.id)).toEqual(["whk_4", "whk_3", "whk_2"]);
    const exact = await list(`?from=${new Date(base + 3 * DAY).toISOString()}&to=${new Date(base + 3 * DAY + 1000).toISOString()}`);
    expect(exact.body.entries.map((e: { action: string }) => e.action)).toEqual(["campaign.deleted", "webhook.created"]);
  });

  it("counts an API key's actions as its creator's under actorId, and names the key", async () => {
    const [{ id: keyId }] = await getDb().select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.createdBy, member.userId));
    await audit(
      ctxAt(base + 20 * DAY, { type: "apiKey", keyId, userId: member.userId, role: "member", scope: "full" }),
      "mailbox.deleted",
      {
        type: "mailbox",
        label: "gone@x.test",
      },
    );
    const byMember = await list(`?actorId=${member.userId}`);
    expect(byMember.body.entries).toHaveLength(1);
    expect(byMember.body.entries[0]).toMatchObject({
      actor: { type: "api_key", id: keyId, label: expect.stringMatching(/ \(ok_live_\w{4}…\)$/) },
    });
    expect((await list(`?actorId=${keyId}`)).body.entries).toHaveLength(1);
  });

  it("shows a member's account-level rows (sign-ins) but not a non-member's", async () => {
    const at = new Date(base + 30 * DAY);
    await auditAccount(getDb(), { userId: member.userId, action: "auth.sign_in", at, ip: "198.51.100.77" });
    await auditAccount(getDb(), { userId: other.userId, action: "auth.sign_in", at, ip: "198.51.100.78" });
    const rows = (await list("?action=auth.sign_in")).body.entries;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: { type: "user", id: member.userId },
      target: { type: "user", id: member.userId },
      ip: "198.51.100.77",
    });
    // In the other workspace it is the other way round.
    const theirs = await call(AUDIT, "GET", "/account/audit-log?action=auth.sign_in", { cookie: await sessionCookie(other.userId) });
    expect(theirs.body.entries.map((e: { ip: string }) => e.ip)).toEqual(["198.51.100.78"]);
  });

  it("is for an owner or admin session: a member or client session and any API key get 403", async () => {
    const here = { "x-workspace-id": ws.workspaceId };
    const as = async (userId: string) => (await list("", { cookie: await sessionCookie(userId), headers: here })).status;
    expect(await as(admin.userId)).toBe(200);
    expect(await as(member.userId)).toBe(403);
    const client = await addMember(ws.workspaceId, "client");
    expect(await as(client.userId)).toBe(403);
    expect((await list("", { key: ws.fullKey })).status).toBe(403);
    expect((await list("", { key: admin.key })).status).toBe(403);
  });
});
