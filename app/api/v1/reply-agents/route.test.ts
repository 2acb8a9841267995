import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { agentChunks, agentDocuments, replyAgentCampaigns } from "@/db/schema";
import { agentForCampaign } from "@/lib/reply-agents/crud";
import { DOCX_MIME, minimalDocx, minimalPdf } from "@/test/fixtures/documents";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as CREATE_CAMPAIGN } from "../campaigns/route";
import { DELETE as DEL_DOC } from "./[id]/documents/[docId]/route";
import { GET as DOCS, POST as UPLOAD } from "./[id]/documents/route";
import { DELETE, GET as GET_ONE, PATCH } from "./[id]/route";
import { POST as SEARCH } from "./[id]/search/route";
import { GET as LIST, POST as CREATE } from "./route";

let ws: TestWorkspace;
let other: TestWorkspace;

const b64 = (b: Buffer | string) => Buffer.from(b).toString("base64");
const campaign = async (key: string, name: string) =>
  (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key, body: { name } })).body.id as string;
const upload = (key: string, id: string, body: unknown) =>
  call(UPLOAD, "POST", `/reply-agents/${id}/documents`, { key, params: { id }, body });

beforeAll(async () => {
  process.env.RATE_LIMIT_DISABLED = "1";
  ws = await makeWorkspace();
  other = await makeWorkspace();
});

describe("reply agents CRUD", () => {
  it("creates, reads, updates and deletes an agent with all its fields and campaigns", async () => {
    const c1 = await campaign(ws.fullKey, "Q4 outreach");
    const c2 = await campaign(ws.fullKey, "Q1 outreach");
    const made = await call(CREATE, "POST", "/reply-agents", {
      key: ws.fullKey,
      body: {
        name: "Ava",
        companyName: "Acme",
        companyDomain: "acme.test",
        tone: "FRIENDLY",
        additionalInfo: "Sign as Ava.",
        campaignIds: [c1],
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "Ava",
      companyName: "Acme",
      companyDomain: "acme.test",
      tone: "FRIENDLY",
      additionalInfo: "Sign as Ava.",
      autonomousReplies: false,
      followUpsEnabled: false,
      campaignIds: [c1],
      documentCount: 0,
      website: { domain: "acme.test", status: null, pagesFound: 0, pagesIndexed: 0 },
    });
    const id = made.body.id;
    expect((await agentForCampaign(getDb(), ws.workspaceId, c1))?.id).toBe(id);
    expect(await agentForCampaign(getDb(), other.workspaceId, c1)).toBeNull();

    const patched = await call(PATCH, "PATCH", "", {
      key: ws.fullKey,
      params: { id },
      body: { tone: "FORMAL", autonomousReplies: true, followUpsEnabled: true, campaignIds: [c2] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ tone: "FORMAL", autonomousReplies: true, followUpsEnabled: true, campaignIds: [c2], name: "Ava" });
    expect(await agentForCampaign(getDb(), ws.workspaceId, c1)).toBeNull();

    // A second agent taking c2 moves it: a campaign has one agent.
    const second = await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "Bo", campaignIds: [c2] } });
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id } })).body.campaignIds).toEqual([]);
    expect((await agentForCampaign(getDb(), ws.workspaceId, c2))?.id).toBe(second.body.id);

    const list = await call(LIST, "GET", "/reply-agents", { key: ws.readKey });
    expect(list.body.agents.map((a: { name: string }) => a.name)).toEqual(["Ava", "Bo"]);

    expect((await call(DELETE, "DELETE", "", { key: ws.fullKey, params: { id } })).body).toEqual({ deleted: true, id });
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id } })).status).toBe(404);
  });

  it("refuses bad input with 400 and another workspace's campaign with 404, writing nothing", async () => {
    const bad = await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "X", tone: "SHOUTY" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(bad.body.details.fieldErrors.tone).toBeDefined();
    expect((await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: {} })).body.details.fieldErrors.name).toBeDefined();

    const theirs = await campaign(other.fullKey, "Theirs");
    const before = (await call(LIST, "GET", "/reply-agents", { key: ws.readKey })).body.agents.length;
    const r = await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "Thief", campaignIds: [theirs] } });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: "NOT_FOUND" });
    expect(r.body.error).toContain(theirs);
    expect((await call(LIST, "GET", "/reply-agents", { key: ws.readKey })).body.agents).toHaveLength(before);
    expect(await getDb().select().from(replyAgentCampaigns).where(eq(replyAgentCampaigns.campaignId, theirs))).toEqual([]);
  });

  it("hides agents across workspaces (404) and needs a full-access key to write (403)", async () => {
    const mine = (await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "Mine" } })).body.id;
    expect((await call(GET_ONE, "GET", "", { key: other.readKey, params: { id: mine } })).status).toBe(404);
    expect((await call(PATCH, "PATCH", "", { key: other.fullKey, params: { id: mine }, body: { name: "pwned" } })).status).toBe(404);
    expect((await call(DELETE, "DELETE", "", { key: other.fullKey, params: { id: mine } })).status).toBe(404);
    expect((await upload(other.fullKey, mine, { filename: "a.txt", mimeType: "text/plain", contentBase64: b64("hi there") })).status).toBe(
      404,
    );
    expect((await call(SEARCH, "POST", "", { key: other.fullKey, params: { id: mine }, body: { query: "x" } })).status).toBe(404);
    expect((await call(CREATE, "POST", "/reply-agents", { key: ws.readKey, body: { name: "R" } })).status).toBe(403);
    expect((await call(SEARCH, "POST", "", { key: ws.readKey, params: { id: mine }, body: { query: "x" } })).status).toBe(403);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id: mine } })).status).toBe(200);
    expect((await call(LIST, "GET", "/reply-agents", { key: other.readKey })).body.agents).toEqual([]);
  });
});

describe("documents and search", () => {
  it("learns from PDF, DOCX and TXT files and answers a question with the right passage first", async () => {
    const id = (await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "Docs" } })).body.id;
    const pdf = minimalPdf([
      ["Acme Widgets ship from our warehouse in Rotterdam.", "Delivery to any EU country takes three business days."],
      ["Warranty: every widget is covered for two years against manufacturing defects."],
    ]);
    const p = await upload(ws.fullKey, id, { filename: "shipping.pdf", mimeType: "application/pdf", contentBase64: b64(pdf) });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ filename: "shipping.pdf", mimeType: "application/pdf", size: pdf.length, status: "READY" });
    expect(p.body.chunks).toBeGreaterThan(0);
    const docx = minimalDocx(["Pricing", "The starter plan costs 29 euros per month.", "Annual billing saves twenty percent."]);
    const d = await upload(ws.fullKey, id, { filename: "pricing.docx", mimeType: DOCX_MIME, contentBase64: b64(docx) });
    expect(d.status).toBe(201);
    const t = await upload(ws.fullKey, id, {
      filename: "faq.txt",
      mimeType: "text/plain; charset=utf-8",
      contentBase64: b64("Support is available by email around the clock.\nWe answer within four hours on weekdays."),
    });
    expect(t.body).toMatchObject({ mimeType: "text/plain", chunks: 1 });

    const q = (query: string) => call(SEARCH, "POST", "", { key: ws.fullKey, params: { id }, body: { query } });
    const warranty = await q("How long is the warranty on a widget?");
    expect(warranty.status).toBe(200);
    expect(warranty.body.results[0]).toMatchObject({ source: "shipping.pdf" });
    expect(warranty.body.results[0].snippet).toContain("two years");
    expect(warranty.body.results[0].score).toBeGreaterThan(0);
    const price = await q("what does the starter plan cost?");
    expect(price.body.results[0].source).toBe("pricing.docx");
    expect(price.body.results[0].snippet).toContain("29 euros");
    expect((await q("when do you answer support emails")).body.results[0].source).toBe("faq.txt");

    const docs = await call(DOCS, "GET", "", { key: ws.readKey, params: { id } });
    expect(docs.body.documents.map((x: { filename: string }) => x.filename)).toEqual(["shipping.pdf", "pricing.docx", "faq.txt"]);
    expect((await call(GET_ONE, "GET", "", { key: ws.readKey, params: { id } })).body.documentCount).toBe(3);

    const gone = await call(DEL_DOC, "DELETE", "", { key: ws.fullKey, params: { id, docId: d.body.id } });
    expect(gone.body).toEqual({ deleted: true, id: d.body.id });
    expect(await getDb().select().from(agentChunks).where(eq(agentChunks.documentId, d.body.id))).toEqual([]);
    expect((await q("what does the starter plan cost?")).body.results.map((r: { source: string }) => r.source)).not.toContain(
      "pricing.docx",
    );
    expect((await call(DEL_DOC, "DELETE", "", { key: ws.fullKey, params: { id, docId: d.body.id } })).status).toBe(404);
  });

  it("refuses other types (400), unreadable content (400) and files over 10 MB (413), storing nothing", async () => {
    const id = (await call(CREATE, "POST", "/reply-agents", { key: ws.fullKey, body: { name: "Strict" } })).body.id;
    const png = await upload(ws.fullKey, id, { filename: "logo.png", mimeType: "image/png", contentBase64: b64("\x89PNG....") });
    expect(png.status).toBe(400);
    expect(png.body).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { fieldErrors: { mimeType: [expect.stringContaining("PDF, DOCX or TXT")] } },
    });
    const fake = await upload(ws.fullKey, id, { filename: "x.pdf", mimeType: "application/pdf", contentBase64: b64("not a pdf at all") });
    expect(fake.status).toBe(400);
    expect(fake.body.details.fieldErrors.contentBase64[0]).toContain("PDF");
    const notB64 = await upload(ws.fullKey, id, { filename: "x.txt", mimeType: "text/plain", contentBase64: "%%%" });
    expect(notB64.body.details.fieldErrors.contentBase64).toEqual(["is not valid base64"]);

    // 10 MB exactly is accepted (the base64 body is ~14 MB, over the default 5 MB limit); one byte more is 413.
    const line = "Our office is open from nine to five on weekdays and closed on public holidays.\n";
    const tenMb = Buffer.alloc(10 * 1024 * 1024, line);
    const ok = await upload(ws.fullKey, id, { filename: "big.txt", mimeType: "text/plain", contentBase64: b64(tenMb) });
    expect(ok.status).toBe(201);
    expect(ok.body.size).toBe(10 * 1024 * 1024);
    const big = await upload(ws.fullKey, id, {
      filename: "bigger.txt",
      mimeType: "text/plain",
      contentBase64: b64(Buffer.concat([tenMb, Buffer.from("x")])),
    });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe("PAYLOAD_TOO_LARGE");
    const rows = await getDb().select({ f: agentDocuments.filename }).from(agentDocuments).where(eq(agentDocuments.agentId, id));
    expect(rows.map((r) => r.f)).toEqual(["big.txt"]);
  });
});
