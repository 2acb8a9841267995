import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";
import { PATCH as AI_SETTINGS } from "../../ai-settings/route";
import { POST as IMPORT } from "../directory/import/route";
import { POST } from "./route";

/** POST /finder/ai-search: through a real OpenAI-compatible peer, and the rule-based parser without one. */
let ws: TestWorkspace;
let ai: Awaited<ReturnType<typeof startOpenAiPeer>>;

const people = [
  {
    firstName: "Ada",
    lastName: "L",
    title: "VP Sales",
    seniority: "vp",
    department: "sales",
    industry: "saas",
    companySize: "51-200",
    country: "UK",
  },
  {
    firstName: "Bea",
    lastName: "M",
    title: "CTO",
    seniority: "c_suite",
    department: "engineering",
    industry: "fintech",
    companySize: "11-50",
    country: "Germany",
  },
  {
    firstName: "Cy",
    lastName: "N",
    title: "VP Sales",
    seniority: "vp",
    department: "sales",
    industry: "saas",
    companySize: "51-200",
    country: "France",
  },
];

const ask = (query: string, key = ws.fullKey) => call(POST, "POST", "/finder/ai-search", { key, body: { query } });

beforeAll(async () => {
  ws = await makeWorkspace();
  ai = await startOpenAiPeer();
  await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { people } });
});
afterEach(() => {
  clearAiEnv();
  ai.reset();
});
afterAll(() => ai.close());

describe("POST /finder/ai-search", () => {
  it("without an AI endpoint reads the sentence with the rules and costs no credit", async () => {
    const r = await ask("VP of Sales at SaaS companies in the UK");
    expect(r.status).toBe(200);
    expect(r.body.source).toBe("rules");
    expect(r.body.filters).toEqual({ seniorities: ["vp"], departments: ["sales"], industries: ["saas"], countries: ["United Kingdom"] });
    expect(r.body.total).toBe(1);
    expect(r.body.people[0].firstName).toBe("Ada");
    expect(ai.chats()).toHaveLength(0);
  });

  it("asks the AI provider for JSON filters, keeps only values of the vocabulary, and spends one credit", async () => {
    ai.useAsProvider();
    ai.onChat(() => 'Sure: {"seniorities":["C-Suite","boss"],"countries":["Germany"],"companySizes":["11-50"],"colour":"red"}');
    const r = await ask("tech leaders at small German companies");
    expect(r.body.source).toBe("ai");
    expect(r.body.filters).toEqual({ seniorities: ["c_suite"], countries: ["Germany"], companySizes: ["11-50"] });
    expect(r.body.people.map((p: { firstName: string }) => p.firstName)).toEqual(["Bea"]);
    expect(ai.chats()).toHaveLength(1);
    expect(ai.chats()[0].body.messages?.[1].content).toBe("tech leaders at small German companies");
  });

  it("falls back to the rules when the model fails or answers no JSON", async () => {
    ai.useAsProvider();
    ai.onChat(() => ({ status: 500, error: "down" }));
    const r = await ask("CTOs in Germany");
    expect(r.body).toMatchObject({ source: "rules", filters: { titles: ["cto"], countries: ["Germany"] }, total: 1 });
    ai.onChat(() => "I cannot help with that");
    expect((await ask("CTOs in Germany")).body.source).toBe("rules");
  });

  it("answers 429 AI_CREDITS with Retry-After once the month's credits are used, asking no model", async () => {
    ai.useAsProvider();
    ai.onChat(() => '{"countries":["France"]}');
    await call(AI_SETTINGS, "PATCH", "/ai-settings", { key: ws.fullKey, body: { monthlyCredits: 4 } }); // three spent by the tests above
    const r = await ask("anyone in France");
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(1);
    const asked = ai.chats().length;
    const out = await ask("anyone in France");
    expect(out.status).toBe(429);
    expect(out.body).toMatchObject({ code: "RATE_LIMITED", details: { reason: "AI_CREDITS" } });
    expect(Number(out.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(ai.chats()).toHaveLength(asked);
  });

  it("refuses an empty query (400) and a read-only key (403)", async () => {
    expect((await ask("  ")).status).toBe(400);
    expect((await ask("x", ws.readKey)).status).toBe(403);
  });
});
