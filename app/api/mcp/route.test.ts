import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { replies } from "@/db/schema";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { callMcpTool, connectMcp } from "@/test/mcp-client";
import { GET as LIST_CAMPAIGNS } from "@/app/api/v1/campaigns/route";
import { GET as GET_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/route";
import { DELETE, GET, POST } from "./route";

let ws: TestWorkspace;
let other: TestWorkspace;
let replyId: string;
let otherCampaignId: string;

const connect = connectMcp;
const tool = callMcpTool;

beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, "sam@mcp.test");
  const c = await connect(ws.fullKey);
  const leads = await tool(c, "create_leads", { leads: [{ email: "lee@lead.test", firstName: "Lee" }] });
  replyId = newId("rep");
  await getDb()
    .insert(replies)
    .values({
      id: replyId,
      workspaceId: ws.workspaceId,
      mailboxId: mbx.id,
      leadId: leads.json.leadIds[0],
      from: { name: "Lee", address: "lee@lead.test" },
      messageId: `<${replyId}@lead.test>`,
      subject: "Re: hello",
      textBody: "Tell me more",
      receivedAt: new Date(),
      intent: "INTERESTED",
    });
  const o = await connect(other.fullKey);
  otherCampaignId = (await tool(o, "create_campaign", { name: "Theirs" })).json.id;
});
afterEach(() => {
  delete process.env.RATE_LIMIT_API_KEY;
});

describe("POST /api/mcp", () => {
  it("answers 401 without a key, in the API's error shape", async () => {
    const res = await POST(
      new Request("http://localhost/api/mcp", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
    );
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe("UNAUTHORIZED");
    expect(res.headers.get("WWW-Authenticate")).toContain("Bearer");
    await expect(connect("ok_live_nope")).rejects.toThrow();
  });

  it("initializes and lists the tools with JSON input schemas from the REST contracts", async () => {
    const c = await connect(ws.readKey);
    expect(c.getServerVersion()?.name).toBe("outreach");
    const { tools } = await c.listTools();
    const names = tools.map((t) => t.name);
    for (const n of [
      "list_campaigns",
      "get_campaign_stats",
      "create_leads",
      "add_leads_to_campaign",
      "send_reply",
      "list_mailbox_issues",
      "start_warmup",
    ]) {
      expect(names).toContain(n);
    }
    for (const t of tools) expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
    const add = tools.find((t) => t.name === "add_leads_to_campaign");
    expect(add?.inputSchema.required).toEqual(expect.arrayContaining(["campaignId", "leadIds"]));
    expect(tools.find((t) => t.name === "search_leads")?.inputSchema.properties).toHaveProperty("limit");
  });

  it("does the jobs with a full key: create a campaign and leads, add them, read stats, list replies and the thread", async () => {
    const c = await connect(ws.fullKey);
    const campaign = await tool(c, "create_campaign", { name: "From MCP" });
    expect(campaign.isError).toBe(false);
    const rest = await call(GET_CAMPAIGN, "GET", `/campaigns/${campaign.json.id}`, { key: ws.fullKey, params: { id: campaign.json.id } });
    expect((await tool(c, "get_campaign", { campaignId: campaign.json.id })).json).toEqual(rest.body);
    const leads = await tool(c, "create_leads", { leads: [{ email: "ann@lead.test" }, { email: "bob@lead.test" }] });
    const added = await tool(c, "add_leads_to_campaign", { campaignId: campaign.json.id, leadIds: leads.json.leadIds });
    expect(added.isError).toBe(false);
    const stats = await tool(c, "get_campaign_stats", { campaignId: campaign.json.id });
    expect(stats.isError).toBe(false);
    const found = await tool(c, "search_leads", { q: "ann@", limit: 10 });
    expect(found.json).toMatchObject({ total: 1, page: 1, limit: 10 });
    const list = await tool(c, "list_campaigns", {});
    expect(list.json).toMatchObject({ page: 1, limit: 50 });
    expect(list.json.campaigns.map((x: { name: string }) => x.name)).toContain("From MCP");
    const rs = await tool(c, "list_replies", {});
    expect(rs.json.replies.map((r: { id: string }) => r.id)).toContain(replyId);
    const thread = await tool(c, "get_thread", { leadId: rs.json.replies[0].leadId });
    expect(thread.isError).toBe(false);
    expect(JSON.stringify(thread.json)).toContain("Tell me more");
    expect((await tool(c, "list_mailboxes")).json.mailboxes).toHaveLength(1);
    expect((await tool(c, "list_mailbox_issues")).isError).toBe(false);
    const mailboxId = (await tool(c, "list_mailboxes")).json.mailboxes[0].id;
    const warm = await tool(c, "start_warmup", { mailboxId });
    expect(warm.isError, warm.text).toBe(false);
    expect(warm.json.id).toBe(mailboxId);
    const overview = await tool(c, "get_analytics_overview", { days: 7 });
    expect(overview.isError, overview.text).toBe(false);
  });

  it("refuses a read key a write tool with FORBIDDEN, and lets it read", async () => {
    const c = await connect(ws.readKey);
    const r = await tool(c, "create_campaign", { name: "Nope" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("FORBIDDEN");
    expect((await tool(c, "set_campaign_status", { campaignId: "cmp_x", status: "PAUSED" })).text).toContain("FORBIDDEN");
    expect((await tool(c, "list_campaigns")).isError).toBe(false);
  });

  it("answers NOT_FOUND for another workspace's ids and VALIDATION_ERROR for bad arguments", async () => {
    const c = await connect(ws.fullKey);
    const r = await tool(c, "get_campaign", { campaignId: otherCampaignId });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("NOT_FOUND");
    expect((await tool(c, "get_campaign_stats", { campaignId: otherCampaignId })).text).toContain("NOT_FOUND");
    const bad = await tool(c, "create_leads", { leads: [] });
    expect(bad.text).toContain("VALIDATION_ERROR");
    expect((await tool(c, "search_leads", { limit: 5000 })).text).toContain("VALIDATION_ERROR");
    expect((await tool(c, "get_campaign", {})).text).toContain("VALIDATION_ERROR");
    expect((await tool(c, "no_such_tool")).text).toContain("NOT_FOUND");
  });

  it("refuses what the REST edge refuses before the handler: a NUL in a body field, a control character in an id", async () => {
    const c = await connect(ws.fullKey);
    const nul = await tool(c, "create_campaign", { name: "Bad\u0000name" });
    expect(nul.isError).toBe(true);
    expect(nul.text).toContain("VALIDATION_ERROR");
    expect(nul.text).toContain("NUL");
    const id = await tool(c, "get_campaign", { campaignId: "cmp_\u0000x" });
    expect(id.text).toContain("VALIDATION_ERROR");
    expect(id.text).toContain("campaignId");
    expect((await tool(c, "get_campaign", { campaignId: "c".repeat(201) })).text).toContain("VALIDATION_ERROR");
  });

  it("lets send_reply address only people already in the conversation", async () => {
    const c = await connect(ws.fullKey);
    const r = await tool(c, "send_reply", { replyId, body: "Hi", to: ["stranger@else.test"] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("FORBIDDEN");
    const cc = await tool(c, "send_reply", { replyId, body: "Hi", cc: ["boss@else.test"] });
    expect(cc.text).toContain("FORBIDDEN");
  });

  it("counts every tools/call against the key's limit, shared with REST", async () => {
    process.env.RATE_LIMIT_API_KEY = "1000";
    const k = await makeWorkspace();
    const c = await connect(k.fullKey);
    const before = await call(LIST_CAMPAIGNS, "GET", "/campaigns", { key: k.fullKey });
    const left = Number(before.headers.get("X-RateLimit-Remaining"));
    for (let i = 0; i < 3; i++) await tool(c, "list_campaigns");
    const after = await call(LIST_CAMPAIGNS, "GET", "/campaigns", { key: k.fullKey });
    expect(Number(after.headers.get("X-RateLimit-Remaining"))).toBe(left - 4);
    process.env.RATE_LIMIT_API_KEY = String(1000 - left + 5);
    await tool(c, "list_campaigns");
    await expect(tool(c, "list_campaigns")).rejects.toThrow(/RATE_LIMITED/);
  });

  it("answers a bare tools/call without initialize (stateless), as docs/mcp.md's curl example sends it", async () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_mailbox_issues", arguments: {} } };
    const headers = {
      authorization: `Bearer ${ws.readKey}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const res = await POST(new Request("http://localhost/api/mcp", { method: "POST", headers, body: JSON.stringify(message) }));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-RateLimit-Limit")).not.toBeNull();
    const body = await res.json();
    expect(body.result.isError).toBeUndefined();
    expect(JSON.parse(body.result.content[0].text)).toHaveProperty("issues");
  });

  it("answers 405 to GET and DELETE (stateless)", async () => {
    expect(GET().status).toBe(405);
    expect(DELETE().status).toBe(405);
  });
});
