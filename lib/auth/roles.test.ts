import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as CREATE_KEY } from "@/app/api/v1/account/api-keys/route";
import { GET as LIST_CAMPAIGNS, POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { GET as LIST_LEADS } from "@/app/api/v1/leads/route";
import { getDb } from "@/db/client";
import { memberships } from "@/db/schema";
import { addMember, call, makeWorkspace, sessionCookie } from "@/test/helpers";

/** A key acts with its creator's role as it is now (read at every request), and a client cannot make keys. */
describe("API keys and the rights table", () => {
  it("a member's key is demoted with its creator: as a client's it reads campaigns and is refused writes and other areas", async () => {
    const ws = await makeWorkspace();
    const member = await addMember(ws.workspaceId, "member");
    expect((await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: member.key, body: { name: "by a member" } })).status).toBe(201);

    await getDb()
      .update(memberships)
      .set({ role: "client" })
      .where(and(eq(memberships.workspaceId, ws.workspaceId), eq(memberships.userId, member.userId)));
    const write = await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: member.key, body: { name: "by a client" } });
    expect([write.status, write.body.code]).toEqual([403, "FORBIDDEN"]);
    expect((await call(LIST_CAMPAIGNS, "GET", "/campaigns", { key: member.key })).status).toBe(200);
    expect((await call(LIST_LEADS, "GET", "/leads", { key: member.key })).status).toBe(403);

    const cookie = await sessionCookie(member.userId);
    const key = await call(CREATE_KEY, "POST", "/account/api-keys", {
      cookie,
      headers: { "x-workspace-id": ws.workspaceId },
      body: { scope: "read" },
    });
    expect([key.status, key.body.code]).toEqual([403, "FORBIDDEN"]);
  });
});
