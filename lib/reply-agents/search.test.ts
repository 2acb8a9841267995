import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { agentChunks, aiUsage } from "@/db/schema";
import { makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";
import { chunkText, CHUNK_CHARS } from "./chunk";
import { createAgent } from "./crud";
import { addKnowledge } from "./knowledge";
import { guessLanguage } from "./language";
import { searchKnowledge } from "./search";
import { patchAiSettings } from "../ai/settings";
import { systemCtx } from "../ctx";

let ai: Awaited<ReturnType<typeof startOpenAiPeer>>;
let ws: TestWorkspace;
const now = new Date("2026-11-20T10:00:00Z");

const FAQ = [
  "Our company was founded in 2015 in Lisbon and has forty employees across three offices.",
  "Refund policy: customers can cancel within 30 days of purchase and receive a full refund of the subscription fee, no questions asked.",
  "Pricing starts at 49 euros per month for the starter plan; the business plan costs 199 euros per month and includes priority support.",
  "The integration with Salesforce and HubSpot syncs contacts every fifteen minutes in both directions.",
];

async function agentWithFaq(): Promise<string> {
  const a = await createAgent(systemCtx(ws.workspaceId), { name: "FAQ bot" });
  for (const [i, text] of FAQ.entries()) {
    await addKnowledge(
      getDb(),
      { workspaceId: ws.workspaceId, agentId: a.id, kind: "document", source: `faq-${i}.txt`, title: null, text },
      now,
    );
  }
  return a.id;
}

beforeAll(async () => {
  ai = await startOpenAiPeer();
  ws = await makeWorkspace();
});
beforeEach(() => {
  clearAiEnv();
  ai.reset();
});
afterAll(async () => {
  clearAiEnv();
  await ai.close();
});

describe("chunking and language", () => {
  it("splits long text into overlapping passages of whole sentences", () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} talks about topic ${i} in some detail.`);
    const chunks = chunkText(sentences.join(" "));
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_CHARS);
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrev = chunks[i - 1].split(/(?<=\.)\s/).at(-1)!;
      expect(chunks[i]).toContain(lastOfPrev);
      expect(chunks[i - 1]).toContain(chunks[i].split(/(?<=\.)\s/)[0]);
    }
    expect(chunks.join(" ")).toContain("Sentence number 59");
  });

  it("guesses the text search configuration from common words", () => {
    expect(guessLanguage("The refund is paid within 30 days of the request and you are told by email.")).toBe("english");
    expect(guessLanguage("Die Rückerstattung ist innerhalb von 30 Tagen möglich und wir sind für Sie da.")).toBe("german");
    expect(guessLanguage("Le remboursement est possible pendant 30 jours et nous sommes là pour vous.")).toBe("french");
    expect(guessLanguage("xq zzv 1234")).toBe("simple");
  });
});

describe("searchKnowledge", () => {
  it("ranks the passage that answers the question first by full-text search (no AI endpoint)", async () => {
    const agentId = await agentWithFaq();
    const hits = await searchKnowledge(getDb(), ws.workspaceId, agentId, "Can I get a refund if I cancel?", 5, now);
    expect(hits[0]).toMatchObject({ source: "faq-1.txt", sourceKind: "document" });
    expect(hits[0].snippet).toContain("full refund");
    expect(hits[0].score).toBeGreaterThan(0);
    const price = await searchKnowledge(getDb(), ws.workspaceId, agentId, "how much does the business plan cost per month", 5, now);
    expect(price[0].source).toBe("faq-2.txt");
    expect(ai.received).toHaveLength(0);
  });

  it("stems in the chunk's language: a German question finds the German passage", async () => {
    const a = await createAgent(systemCtx(ws.workspaceId), { name: "DE" });
    const text = "Die Lieferung erfolgt innerhalb von drei Werktagen. Wir liefern in alle Länder der Europäischen Union.";
    await addKnowledge(
      getDb(),
      { workspaceId: ws.workspaceId, agentId: a.id, kind: "url", source: "https://x.test/de", title: "Versand", text },
      now,
    );
    const [lang] = await getDb().select({ l: agentChunks.language }).from(agentChunks).where(eq(agentChunks.agentId, a.id));
    expect(lang.l).toBe("german");
    const hits = await searchKnowledge(getDb(), ws.workspaceId, a.id, "Wie lange dauern Lieferungen?", 5, now);
    expect(hits.map((h) => h.source)).toEqual(["https://x.test/de"]);
    expect(hits[0].title).toBe("Versand");
  });

  it("fuses embeddings with full-text ranking when the provider embeds, and costs one credit per request", async () => {
    ai.useAsProvider();
    const agentId = await agentWithFaq();
    expect(ai.embeddings()).toHaveLength(FAQ.length);
    const stored = await getDb().select({ e: agentChunks.embedding }).from(agentChunks).where(eq(agentChunks.agentId, agentId));
    expect(stored.every((r) => Array.isArray(r.e) && r.e.length === 64)).toBe(true);
    // No shared stemmed word with the refund passage but "refund"… and embeddings of "subscription fee" agree.
    const hits = await searchKnowledge(getDb(), ws.workspaceId, agentId, "refund of my subscription fee", 3, now);
    expect(hits[0].source).toBe("faq-1.txt");
    expect(ai.embeddings().at(-1)!.body).toMatchObject({ model: "test-embed", input: ["refund of my subscription fee"] });
    const [u] = await getDb().select().from(aiUsage).where(eq(aiUsage.workspaceId, ws.workspaceId));
    expect(u.used).toBe(FAQ.length + 1);
  });

  it("finds by embedding alone a passage that shares no word with the question", async () => {
    ai.useAsProvider();
    ai.onEmbed((r) => (r.body.input as string[]).map((t) => (t.includes("Salesforce") || t === "link my address book" ? [1, 0] : [0, 1])));
    const agentId = await agentWithFaq();
    const viaVector = await searchKnowledge(getDb(), ws.workspaceId, agentId, "link my address book", 3, now);
    expect(viaVector.map((h) => h.source)).toEqual(["faq-3.txt"]);
    ai.useAsProvider({ embeddings: false });
    expect(await searchKnowledge(getDb(), ws.workspaceId, agentId, "link my address book", 3, now)).toEqual([]);
  });

  it("falls back to full-text search when the embeddings endpoint fails or hangs", async () => {
    ai.useAsProvider({ timeoutMs: 300 });
    ai.onEmbed(() => ({ status: 500, error: "boom" }));
    const agentId = await agentWithFaq();
    const stored = await getDb().select({ e: agentChunks.embedding }).from(agentChunks).where(eq(agentChunks.agentId, agentId));
    expect(stored.every((r) => r.e === null)).toBe(true);
    ai.onEmbed(() => ({ hang: true }));
    const t0 = Date.now();
    const hits = await searchKnowledge(getDb(), ws.workspaceId, agentId, "refund policy", 3, now);
    expect(hits[0].source).toBe("faq-1.txt");
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("skips embeddings (no request) when the workspace has no AI credits left, and still finds by full text", async () => {
    ai.useAsProvider();
    const poor = await makeWorkspace();
    await patchAiSettings(systemCtx(poor.workspaceId), { monthlyCredits: 0 });
    const a = await createAgent(systemCtx(poor.workspaceId), { name: "Poor" });
    const text = FAQ[1];
    await addKnowledge(
      getDb(),
      { workspaceId: poor.workspaceId, agentId: a.id, kind: "document", source: "r.txt", title: null, text },
      now,
    );
    const [row] = await getDb().select({ e: agentChunks.embedding }).from(agentChunks).where(eq(agentChunks.agentId, a.id));
    expect(row.e).toBeNull();
    expect((await searchKnowledge(getDb(), poor.workspaceId, a.id, "refund", 3, now))[0].source).toBe("r.txt");
    expect(ai.embeddings()).toHaveLength(0);
  });

  it("never returns another agent's or another workspace's passages", async () => {
    const agentId = await agentWithFaq();
    const other = await makeWorkspace();
    expect(await searchKnowledge(getDb(), other.workspaceId, agentId, "refund", 5, now)).toEqual([]);
    const empty = await createAgent(systemCtx(ws.workspaceId), { name: "empty" });
    expect(await searchKnowledge(getDb(), ws.workspaceId, empty.id, "refund", 5, now)).toEqual([]);
  });
});
