import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { classify, newText, type Intent } from "./classify";
import { type DraftInput, templateDraft } from "./template-draft";

/** How a text the product wrote was made: by a language model, or by the built-in rules and templates. */
export type GeneratedBy = "template" | "ai";

/** What the product asks of a language model. Any OpenAI-compatible endpoint, or the built-in fallback. */
export interface AiProvider {
  name: string;
  model: string | null;
  /** The embeddings model, when the endpoint is used for embeddings. */
  embeddingModel: string | null;
  classify(text: string): Promise<Intent>;
  draft(input: DraftInput): Promise<string>;
  /** A free-form answer to a system and a user prompt (absent for the built-in provider). */
  complete?(system: string, user: string): Promise<string>;
  /** One vector per text, in order (absent without an embeddings model). */
  embed?(texts: string[]): Promise<number[][]>;
}

const INTENTS: Intent[] = ["INTERESTED", "NOT_INTERESTED", "WRONG_PERSON", "UNSUBSCRIBE_REQUEST", "QUESTION", "UNCLASSIFIED"];

/** Deterministic answers without a model: the rule classifier and a short, honest template (template-draft.ts). */
export const builtInProvider: AiProvider = {
  name: "built-in",
  model: null,
  embeddingModel: null,
  async classify(text) {
    return classify({ automatic: false, text });
  },
  async draft(i) {
    return templateDraft(i);
  },
};

/** "ai" for a provider with a model behind it, "template" for the built-in one. */
export function generatedByOf(p: AiProvider): GeneratedBy {
  return p === builtInProvider ? "template" : "ai";
}

/** A model's answer, or a thrown error (timeout, refusal, empty answer) for the caller to fall back on. */
async function chat(client: OpenAI, model: string, system: string, user: string): Promise<string> {
  const res = await client.chat.completions.create({
    model,
    temperature: 0.2,
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
  });
  const content = res.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error("AI endpoint gave no message content");
  return content.trim();
}

/** The settings of an OpenAI-compatible endpoint: the workspace's (Settings → AI) or the installation's AI_* (docs/ai.md). */
export interface EndpointConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Embeddings are used only when it is set. */
  embeddingModel?: string;
  /** One request's limit; past it the caller falls back (default 20 s). */
  timeoutMs?: number;
  /** The HTTP client: a workspace's endpoint goes through the SSRF guard (guarded-fetch.ts); the default is the global fetch. */
  fetch?: typeof fetch;
}

function clientFor(cfg: EndpointConfig, timeoutMs = cfg.timeoutMs ?? 20_000): OpenAI {
  return new OpenAI({
    baseURL: cfg.baseUrl.replace(/\/$/, ""),
    // The client insists on a key; endpoints without auth (a local model server) ignore it.
    apiKey: cfg.apiKey || "not-needed",
    timeout: timeoutMs,
    maxRetries: 0,
    fetch: cfg.fetch,
  });
}

/** Any OpenAI-compatible endpoint through the maintained `openai` client (no retries: callers fall back). */
export function openAiCompatible(cfg: EndpointConfig): AiProvider {
  const { model, embeddingModel } = cfg;
  const client = clientFor(cfg);
  return {
    name: "openai-compatible",
    model,
    embeddingModel: embeddingModel ?? null,
    complete: (system, user) => chat(client, model, system, user),
    embed: embeddingModel
      ? async (texts) => {
          const res = await client.embeddings.create({ model: embeddingModel, input: texts, encoding_format: "float" });
          const out = [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
          if (out.length !== texts.length || out.some((v) => !Array.isArray(v) || v.length === 0)) {
            throw new Error(`AI endpoint gave ${out.length} embeddings for ${texts.length} texts`);
          }
          return out;
        }
      : undefined,
    async classify(text) {
      const out = await chat(
        client,
        model,
        `Classify a reply to a cold email. Answer with exactly one word from: ${INTENTS.join(", ")}. ` +
          "UNSUBSCRIBE_REQUEST: asks to be removed or to stop. WRONG_PERSON: not the right contact. " +
          "QUESTION: asks something without showing interest or refusal.",
        newText(text).slice(0, 4000),
      );
      const word = out
        .toUpperCase()
        .match(/[A-Z_]+/g)
        ?.find((w) => (INTENTS as string[]).includes(w));
      return (word as Intent | undefined) ?? "UNCLASSIFIED";
    },
    async draft(i) {
      return chat(
        client,
        model,
        `You write short, friendly, professional email replies for a salesperson${i.senderName ? ` named ${i.senderName}` : ""}. ` +
          "Answer what the lead wrote: confirm a time they propose, answer or acknowledge each question they ask. " +
          `Plain text, no subject line, under 120 words. ${i.customInstructions}`.trim(),
        `Their reply (classified ${i.intent}) to our email "${i.subject}":\n\n${newText(i.theirMessage).slice(0, 4000)}\n\n` +
          `Write our answer${i.leadName ? ` to ${i.leadName}` : ""}.`,
      );
    },
  };
}

/** The innermost cause's message of an error (a fetch failure wraps the socket's ECONNREFUSED, say). */
function rootMessage(e: unknown): string | undefined {
  let cur = e as { message?: string; cause?: unknown } | undefined;
  let msg: string | undefined;
  for (let i = 0; cur && i < 5; i++, cur = cur.cause as typeof cur) if (cur.message) msg = cur.message;
  return msg;
}

/** A failed call to an endpoint in words a person can act on: the HTTP answer, the connection's failure, or the timeout. */
export function describeAiError(e: unknown, cfg: { baseUrl: string; timeoutMs: number }): string {
  const origin = URL.canParse(cfg.baseUrl) ? new URL(cfg.baseUrl).origin : cfg.baseUrl;
  if (e instanceof APIConnectionTimeoutError) return `No answer from ${origin} within ${cfg.timeoutMs / 1000} s`;
  if (e instanceof APIConnectionError) return `Could not reach ${origin}: ${rootMessage(e.cause) ?? e.message}`;
  if (e instanceof APIError && e.status) {
    const body = e.error as { message?: string } | undefined;
    const why = body?.message ?? e.message.replace(/^\d{3}\s*/, "");
    const hint =
      e.status === 401 || e.status === 403 ? " (check the API key)" : e.status === 404 ? " (check the base URL and the model)" : "";
    return `The endpoint answered HTTP ${e.status}${hint}${why ? `: ${why}` : ""}`;
  }
  return rootMessage(e) ?? String(e);
}

/**
 * One chat call of one token to the endpoint (Settings → AI's Test): resolves with the time it took, or
 * rejects with the endpoint's error. Models that refuse `max_tokens` (they take `max_completion_tokens`)
 * are asked again once with the newer name.
 */
export async function pingEndpoint(cfg: EndpointConfig, timeoutMs: number): Promise<void> {
  const client = clientFor(cfg, timeoutMs);
  const messages = [{ role: "user" as const, content: "Reply with OK." }];
  try {
    await client.chat.completions.create({ model: cfg.model, max_tokens: 1, messages });
  } catch (e) {
    if (!(e instanceof APIError && e.status === 400 && /max_tokens/.test(e.message))) throw e;
    await client.chat.completions.create({ model: cfg.model, max_completion_tokens: 1, messages });
  }
}

/** Classification with a model never blocks ingestion: any failure falls back to the rules. */
export async function classifyWithFallback(p: AiProvider, text: string, useAi: boolean): Promise<Intent> {
  if (!useAi || p === builtInProvider) return builtInProvider.classify(text);
  try {
    return await p.classify(text);
  } catch {
    return builtInProvider.classify(text);
  }
}
