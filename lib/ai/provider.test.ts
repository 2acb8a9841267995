import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";
import { builtInProvider, classifyWithFallback } from "./provider";
import { environmentProvider } from "./resolve";

/** The openai client path against a local OpenAI-compatible peer: requests, answers, errors and timeouts. */
let ai: Awaited<ReturnType<typeof startOpenAiPeer>>;

beforeAll(async () => {
  ai = await startOpenAiPeer();
});
beforeEach(() => {
  ai.reset();
  clearAiEnv();
});
afterAll(async () => {
  clearAiEnv();
  await ai.close();
});

describe("OpenAI-compatible provider (openai client)", () => {
  it("is the built-in provider without AI_BASE_URL (and no workspace endpoint), with no embeddings", () => {
    expect(environmentProvider()).toBe(builtInProvider);
    expect(environmentProvider().embed).toBeUndefined();
  });

  it("sends chat completions with the model and key, and embeddings in order", async () => {
    ai.useAsProvider();
    ai.onChat((r) => `echo:${r.body.messages?.at(-1)?.content}`);
    const p = environmentProvider();
    expect(p).toMatchObject({ name: "openai-compatible", model: "test-chat", embeddingModel: "test-embed" });
    expect(await p.complete?.("Be brief.", "hello")).toBe("echo:hello");
    const chat = ai.chats()[0];
    expect(chat.headers.authorization).toBe("Bearer test-key");
    expect(chat.body).toMatchObject({
      model: "test-chat",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hello" },
      ],
    });
    ai.onEmbed((r) => (r.body.input as string[]).map((_, i) => [i, 1]));
    expect(await p.embed?.(["a", "b", "c"])).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    expect(ai.embeddings()[0].body).toMatchObject({ model: "test-embed", input: ["a", "b", "c"], encoding_format: "float" });
  });

  it("has no embeddings without AI_EMBEDDING_MODEL", () => {
    ai.useAsProvider({ embeddings: false });
    expect(environmentProvider().embed).toBeUndefined();
  });

  it("surfaces HTTP errors and times out a hanging endpoint (AI_TIMEOUT_MS), without retrying", async () => {
    ai.useAsProvider({ timeoutMs: 300 });
    ai.onChat(() => ({ status: 503, error: "overloaded" }));
    await expect(environmentProvider().complete?.("s", "u")).rejects.toThrow(/503|overloaded/);
    expect(ai.chats()).toHaveLength(1);
    ai.onEmbed(() => ({ hang: true }));
    const t0 = Date.now();
    await expect(environmentProvider().embed?.(["x"])).rejects.toThrow(/timed out|timeout/i);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("falls back to the rule classifier when the model hangs", async () => {
    ai.useAsProvider({ timeoutMs: 300 });
    ai.onChat(() => ({ hang: true }));
    const t0 = Date.now();
    expect(await classifyWithFallback(environmentProvider(), "Please remove me from your list", true)).toBe("UNSUBSCRIBE_REQUEST");
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(ai.chats()).toHaveLength(1);
  });
});
