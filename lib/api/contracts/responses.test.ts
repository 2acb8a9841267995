import { beforeAll, describe, expect, it } from "vitest";
import type { RouteDef } from "../route";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { campaignRoutes } from "./campaigns";
import { tagRoutes } from "./workspace";
import { GET as LIST, POST as CREATE } from "@/app/api/v1/campaigns/route";
import { GET as GET_ONE, PATCH } from "@/app/api/v1/campaigns/[id]/route";
import { GET as SETTINGS } from "@/app/api/v1/campaigns/[id]/settings/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { GET as STATS } from "@/app/api/v1/campaigns/[id]/stats/route";
import { GET as LAUNCH_CHECK } from "@/app/api/v1/campaigns/[id]/launch-check/route";
import { POST as DUPLICATE } from "@/app/api/v1/campaigns/[id]/duplicate/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as LIST_REPLIES } from "@/app/api/v1/replies/route";
import { getDb } from "@/db/client";
import { replies } from "@/db/schema";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { inboxRoutes } from "./inbox";
import { POST as CREATE_TAG } from "@/app/api/v1/tags/route";
import { DELETE as DELETE_TAG } from "@/app/api/v1/tags/[tagId]/route";
import { POST as UPLOAD } from "@/app/api/v1/replies/uploads/route";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

/** The real response parses with the contract's response schema, with its documented status. */
function conforms(def: RouteDef, r: { status: number; body: unknown }) {
  expect(r.status, JSON.stringify(r.body)).toBe(def.response?.status ?? 200);
  const parsed = def.response?.schema?.safeParse(r.body);
  expect(parsed?.success, JSON.stringify(parsed?.error?.issues)).toBe(true);
}

describe("response schemas describe what the routes answer", () => {
  it("campaigns: list, create, get, patch, settings, status, duplicate", async () => {
    const key = ws.fullKey;
    const created = await call(CREATE, "POST", "/campaigns", { key, body: { name: "Schema" } });
    conforms(campaignRoutes.create, created);
    const params = { id: created.body.id };
    conforms(campaignRoutes.list, await call(LIST, "GET", "/campaigns", { key }));
    conforms(campaignRoutes.get, await call(GET_ONE, "GET", `/campaigns/${params.id}`, { key, params }));
    conforms(campaignRoutes.patch, await call(PATCH, "PATCH", `/campaigns/${params.id}`, { key, params, body: { folder: "Q4" } }));
    conforms(campaignRoutes.getSettings, await call(SETTINGS, "GET", `/campaigns/${params.id}/settings`, { key, params }));
    conforms(
      campaignRoutes.duplicate,
      await call(DUPLICATE, "POST", `/campaigns/${params.id}/duplicate`, { key, params, body: { name: "Copy" } }),
    );
    conforms(campaignRoutes.stats, await call(STATS, "GET", `/campaigns/${params.id}/stats`, { key, params }));
    conforms(campaignRoutes.launchCheck, await call(LAUNCH_CHECK, "GET", `/campaigns/${params.id}/launch-check`, { key, params }));
    conforms(
      campaignRoutes.status,
      await call(STATUS, "PATCH", `/campaigns/${params.id}/status`, { key, params, body: { status: "ARCHIVED" } }),
    );
  });

  it("campaign leads: one result per lead sent", async () => {
    const key = ws.fullKey;
    const c = await call(CREATE, "POST", "/campaigns", { key, body: { name: "Leads schema" } });
    const leads = await call(CREATE_LEADS, "POST", "/leads", { key, body: { leads: [{ email: "s1@schema.test" }] } });
    const params = { id: c.body.id };
    const body = { leadIds: [...leads.body.leadIds, "lead_missing"] };
    const r = await call(ADD_LEADS, "POST", `/campaigns/${params.id}/leads`, { key, params, body });
    conforms(campaignRoutes.addLeads, r);
    expect(r.body.results.map((x: { result: string }) => x.result)).toEqual(["no_eligible_mailbox", "error"]);
  });

  it("replies: the envelope of received replies", async () => {
    const mbx = await insertMailbox(ws.workspaceId, "sam@schema.test");
    const leads = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "r1@schema.test" }] } });
    const id = newId("rep");
    await getDb()
      .insert(replies)
      .values({
        id,
        workspaceId: ws.workspaceId,
        mailboxId: mbx.id,
        leadId: leads.body.leadIds[0],
        from: { name: "R", address: "r1@schema.test" },
        messageId: `<${id}@schema.test>`,
        subject: "Re: hi",
        textBody: "Sure",
        receivedAt: new Date(),
        intent: "INTERESTED",
      });
    const r = await call(LIST_REPLIES, "GET", "/replies", { key: ws.readKey });
    conforms(inboxRoutes.list, r);
    expect(r.body.replies.map((x: { id: string }) => x.id)).toContain(id);
  });

  it("a deleted record: { deleted: true, id }", async () => {
    const tag = await call(CREATE_TAG, "POST", "/tags", { key: ws.fullKey, body: { name: "gone" } });
    const r = await call(DELETE_TAG, "DELETE", `/tags/${tag.body.id}`, { key: ws.fullKey, params: { tagId: tag.body.id } });
    conforms(tagRoutes.delete, r);
  });

  it("inbox: an uploaded file's record", async () => {
    const headers = { "content-type": "application/octet-stream", "x-filename": "notes%20v1.txt", "x-content-type": "text/plain" };
    const r = await call(UPLOAD, "POST", "/replies/uploads", { key: ws.fullKey, rawBody: "hello", headers });
    conforms(inboxRoutes.upload, r);
    expect(r.body).toMatchObject({ filename: "notes v1.txt", size: 5 });
  });
});
