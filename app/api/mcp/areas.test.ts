import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMailbox } from "@/test/factories";
import { POST as IMPORT } from "@/app/api/v1/finder/directory/import/route";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { callMcpTool as tool, connectMcp as connect } from "@/test/mcp-client";
import { startHttpPeer } from "@/test/peers/http";

/**
 * The areas beyond campaigns and the inbox, through the MCP SDK's client: reply agents (documents,
 * knowledge search, website scan), the finder (search, facets, enrichment jobs), warmup and
 * deliverability (start/stop/resume, placement tests, alerts). Each tool answers what its REST route answers.
 */
let ws: TestWorkspace;
let site: Awaited<ReturnType<typeof startHttpPeer>>;
const saved = process.env.OUTBOUND_ALLOW_HOSTS;

beforeAll(async () => {
  ws = await makeWorkspace();
  site = await startHttpPeer();
  site.setResponder(() => ({
    status: 200,
    headers: { "content-type": "text/html" },
    body: "<html><title>Acme</title><body>Hi</body></html>",
  }));
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
});
afterAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = saved;
  await site.close();
});

describe("MCP tools of every area", () => {
  it("lists a tool for each capability, each with an input schema from its route's contract", async () => {
    const { tools } = await (await connect(ws.readKey)).listTools();
    const names = tools.map((t) => t.name);
    for (const n of [
      "upload_agent_document",
      "search_agent_knowledge",
      "scan_agent_website",
      "finder_search",
      "finder_facets",
      "start_enrichment",
      "get_enrichment_job",
      "stop_warmup",
      "resume_warmup",
      "start_placement_test",
      "list_deliverability_alerts",
      "get_lead_timeline",
      "suppress_addresses",
      "update_tag",
      "get_ai_provider",
      "get_setup_checklist",
    ]) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
    const upload = tools.find((t) => t.name === "upload_agent_document");
    expect(upload?.inputSchema.required).toEqual(expect.arrayContaining(["agentId", "filename", "mimeType", "contentBase64"]));
    expect(tools.find((t) => t.name === "stop_warmup")?.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((t) => t.name === "finder_filters")?.annotations?.readOnlyHint).toBe(true);
  });

  it("trains a reply agent on a document, searches its knowledge and starts a website scan", async () => {
    const c = await connect(ws.fullKey);
    const agent = await tool(c, "create_reply_agent", { name: "Support", companyName: "Acme" });
    expect(agent.isError, agent.text).toBe(false);
    const text = "Our pro plan costs 99 dollars per month and includes phone support.";
    const doc = await tool(c, "upload_agent_document", {
      agentId: agent.json.id,
      filename: "pricing.txt",
      mimeType: "text/plain",
      contentBase64: Buffer.from(text).toString("base64"),
    });
    expect(doc.isError, doc.text).toBe(false);
    expect(doc.json.filename).toBe("pricing.txt");
    expect((await tool(c, "list_agent_documents", { agentId: agent.json.id })).json.documents).toHaveLength(1);
    const found = await tool(c, "search_agent_knowledge", { agentId: agent.json.id, query: "how much is the pro plan" });
    expect(found.isError, found.text).toBe(false);
    expect(found.json.results[0].snippet).toContain("99 dollars");
    const scan = await tool(c, "scan_agent_website", { agentId: agent.json.id, url: site.url("/") });
    expect(scan.isError, scan.text).toBe(false);
    const progress = await tool(c, "get_agent_website_scan", { agentId: agent.json.id });
    expect(progress.json.id).toBe(scan.json.id);
    expect(progress.json.url).toContain(`127.0.0.1:${site.port}`);
  });

  it("searches the finder, counts its facets and runs an enrichment job", async () => {
    const people = [
      { firstName: "Greta", lastName: "Ng", title: "CTO", companyName: "Paylane", companyDomain: "paylane.test", country: "Germany" },
      { firstName: "Hugo", lastName: "Li", title: "Sales Manager", companyName: "Shopco", companyDomain: "shopco.test", country: "France" },
    ];
    const imported = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { people } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const c = await connect(ws.fullKey);
    expect((await tool(c, "finder_filters")).isError).toBe(false);
    const search = await tool(c, "finder_search", { filters: { titles: ["CTO"] } });
    expect(search.isError, search.text).toBe(false);
    expect(search.json.people.map((p: { firstName: string }) => p.firstName)).toEqual(["Greta"]);
    const facets = await tool(c, "finder_facets", { facets: ["countries"] });
    expect(facets.isError, facets.text).toBe(false);
    expect(facets.json.facets.countries.map((f: { count: number }) => f.count)).toEqual([1, 1]);
    const parsed = await tool(c, "finder_ai_search", { query: "CTOs in Germany" });
    expect(parsed.isError, parsed.text).toBe(false);
    const job = await tool(c, "start_enrichment", { personIds: [imported.body.personIds[0]], verify: false });
    expect(job.isError, job.text).toBe(false);
    const read = await tool(c, "get_enrichment_job", { jobId: job.json.id });
    expect(read.isError, read.text).toBe(false);
    expect(read.json.id).toBe(job.json.id);
    expect((await tool(c, "start_enrichment", { personIds: [] })).text).toContain("VALIDATION_ERROR");
    expect((await tool(c, "get_enrichment_job", { jobId: "enj_nope" })).text).toContain("NOT_FOUND");
  });

  it("stops and resumes a mailbox's warmup, lists placement tests and alerts", async () => {
    const mbx = await insertMailbox(ws.workspaceId, "warm@mcp-areas.test");
    const c = await connect(ws.fullKey);
    const started = await tool(c, "start_warmup", { mailboxId: mbx.id });
    expect(started.isError, started.text).toBe(false);
    expect(started.json.warmupStatus).toBe("EARLY");
    const stopped = await tool(c, "stop_warmup", { mailboxId: mbx.id });
    expect(stopped.isError, stopped.text).toBe(false);
    expect(stopped.json.warmupStatus).toBe("PAUSED");
    const resumed = await tool(c, "resume_warmup", { mailboxId: mbx.id });
    expect(resumed.isError, resumed.text).toBe(false);
    expect(resumed.json).toMatchObject({ dayIndex: 0, warmupStatus: "EARLY" });
    const tests = await tool(c, "list_placement_tests");
    expect(tests.isError, tests.text).toBe(false);
    expect(tests.json.tests).toEqual([]);
    const alerts = await tool(c, "list_deliverability_alerts");
    expect(alerts.isError, alerts.text).toBe(false);
    expect(alerts.json).toMatchObject({ page: 1, limit: 50 });
    const overview = await tool(c, "get_deliverability_overview");
    expect(overview.isError, overview.text).toBe(false);
  });

  it("tags a lead and reads its timeline, keeps the suppression list and reads the settings and checklist", async () => {
    const c = await connect(ws.fullKey);
    const lead = await tool(c, "create_leads", { leads: [{ email: "tina@timeline-mcp.test", firstName: "Tina" }] });
    const leadId = lead.json.leadIds[0];
    const tag = await tool(c, "create_tag", { name: "MCP hot", color: "#ff0000" });
    expect(tag.isError, tag.text).toBe(false);
    const tagged = await tool(c, "tag_leads", { tagId: tag.json.id, leadIds: [leadId] });
    expect(tagged.isError, tagged.text).toBe(false);
    expect((await tool(c, "get_lead", { leadId })).json.email).toBe("tina@timeline-mcp.test");
    const timeline = await tool(c, "get_lead_timeline", { leadId });
    expect(timeline.isError, timeline.text).toBe(false);
    expect(timeline.json.events.map((e: { kind: string }) => e.kind)).toContain("tagged");
    const renamed = await tool(c, "update_tag", { tagId: tag.json.id, name: "MCP warm" });
    expect(renamed.json.name).toBe("MCP warm");
    const sup = await tool(c, "suppress_addresses", { entries: [{ value: "nomail@mcp-sup.test" }, { value: "blocked-mcp.test" }] });
    expect(sup.isError, sup.text).toBe(false);
    const list = await tool(c, "list_suppressions", { q: "mcp-sup" });
    expect(list.json.total).toBe(1);
    const provider = await tool(c, "get_ai_provider");
    expect(provider.isError, provider.text).toBe(false);
    expect(provider.json).toHaveProperty("source");
    expect(provider.json).not.toHaveProperty("apiKey");
    const checklist = await tool(c, "get_setup_checklist");
    expect(checklist.isError, checklist.text).toBe(false);
    const leadsItem = checklist.json.items.find((i: { id: string }) => i.id === "leads");
    expect(leadsItem?.done).toBe(true);
  });

  it("refuses a read key the write tools of these areas", async () => {
    const c = await connect(ws.readKey);
    expect((await tool(c, "stop_warmup", { mailboxId: "mbx_x" })).text).toContain("FORBIDDEN");
    expect((await tool(c, "start_enrichment", { personIds: ["p"] })).text).toContain("FORBIDDEN");
    expect((await tool(c, "list_deliverability_alerts")).isError).toBe(false);
  });
});
