import { beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { callMcpTool, connectMcp } from "@/test/mcp-client";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { GET as GET_SETTINGS, PATCH as PATCH_SETTINGS } from "@/app/api/v1/campaigns/[id]/settings/route";

let ws: TestWorkspace;
let id: string;
beforeAll(async () => {
  ws = await makeWorkspace();
  id = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Strict" } })).body.id as string;
});
const settings = (method: "GET" | "PATCH", body?: unknown) =>
  call(method === "GET" ? GET_SETTINGS : PATCH_SETTINGS, method, "", { key: ws.fullKey, params: { id }, body });

describe("write routes refuse unknown fields (campaign settings)", () => {
  it("PATCH with a field the route does not know is 400 naming it, and changes nothing", async () => {
    const before = (await settings("GET")).body;
    const r = await settings("PATCH", { skipWeekends: true, trackOpen: false });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(r.body.details.fieldErrors).sort()).toEqual(["skipWeekends", "trackOpen"]);
    expect(r.body.details.fieldErrors.trackOpen[0]).toMatch(/did you mean trackOpens/);
    expect((await settings("GET")).body).toEqual(before);
  });

  it("the object a GET returned, sent back with a change, is 200 (read-only fields ignored)", async () => {
    const read = (await settings("GET")).body;
    const r = await settings("PATCH", { ...read, trackOpens: !read.trackOpens });
    expect(r.status).toBe(200);
    expect((await settings("GET")).body.trackOpens).toBe(!read.trackOpens);
  });

  it("an MCP tool with an unknown argument is an error naming it", async () => {
    const c = await connectMcp(ws.fullKey);
    const r = await callMcpTool(c, "create_campaign", { name: "Via MCP", skipWeekends: true });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/skipWeekends/);
    const ok = await callMcpTool(c, "create_campaign", { name: "Via MCP" });
    expect(ok.isError).toBe(false);
  });
});
