import OpenAI from "openai";
import { classify, newText, type Intent } from "../inbox/classify";

export interface DraftInput {
  leadName: string | null;
  senderName: string | null;
  subject: string;
  theirMessage: string;
  intent: Intent;
  customInstructions: string;
}

/** What the product asks of a language model. Any OpenAI-compatible endpoint, or the built-in fallback. */
export interface AiProvider {
  name: string;
  model: string | null;
  /** The embeddings model, when the endpoint is used for embeddings (AI_EMBEDDING_MODEL). */
  embeddingModel: string | null;
  classify(text: string): Promise<Intent>;
  draft(input: DraftInput): Promise<string>;
  /** A free-form answer to a system and a user prompt (absent for the built-in provider). */
  complete?(system: string, user: string): Promise<string>;
  /** One vector per text, in order (absent without an embeddings model). */
  embed?(texts: string[]): Promise<number[][]>;
}

const INTENTS: Intent[] = ["INTERESTED", "NOT_INTERESTED", "WRONG_PERSON", "UNSUBSCRIBE_REQUEST", "QUESTION", "UNCLASSIFIED"];

/** Deterministic answers without a model: the rule classifier and a short, honest template. */
export const builtInProvider: AiProvider = {
  name: "built-in",
  model: null,
  embeddingModel: null,
  async classify(text) {
    return classify({ automatic: false, text });
  },
  async draft(i) {
    const hi = i.leadName ? `Hi ${i.leadName},` : "Hi,";
    const bySign = i.senderName ? `\n\nBest,\n${i.senderName}` : "\n\nBest,";
    const body: Record<Intent, string> = {
      INTERESTED:
        "Great to hear from you! Would Tuesday or Thursday work for a 20-minute call? Happy to send a calendar invite for whichever suits you.",
      QUESTION: "Thanks for the question. Happy to explain — would a short call be easiest, or shall I put the details in writing?",
      NOT_INTERESTED: "Thanks for letting me know — I won't follow up on this. All the best.",
      WRONG_PERSON: "Thanks for letting me know. Could you point me to the right person for this?",
      UNSUBSCRIBE_REQUEST: "Understood — I've removed you from our list and you won't hear from us again.",
      OUT_OF_OFFICE: "Thanks — I'll follow up when you're back.",
      UNCLASSIFIED: "Thanks for getting back to me.",
    };
    return `${hi}\n\n${body[i.intent]}${bySign}`;
  },
};

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

/** The settings of an OpenAI-compatible endpoint (AI_* env; see docs/reply-agents.md). */
export interface EndpointConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** AI_EMBEDDING_MODEL: embeddings are used only when it is set. */
  embeddingModel?: string;
  /** AI_TIMEOUT_MS: one request's limit; past it the caller falls back (default 20 s). */
  timeoutMs?: number;
}

/** Any OpenAI-compatible endpoint through the maintained `openai` client (no retries: callers fall back). */
export function openAiCompatible(cfg: EndpointConfig): AiProvider {
  const { model, embeddingModel } = cfg;
  const client = new OpenAI({
    baseURL: cfg.baseUrl.replace(/\/$/, ""),
    // The client insists on a key; endpoints without auth (a local model server) ignore it.
    apiKey: cfg.apiKey || "not-needed",
    timeout: cfg.timeoutMs ?? 20_000,
    maxRetries: 0,
  });
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
          `Plain text, no subject line, under 120 words. ${i.customInstructions}`.trim(),
        `Their reply (classified ${i.intent}) to our email "${i.subject}":\n\n${newText(i.theirMessage).slice(0, 4000)}\n\n` +
          `Write our answer${i.leadName ? ` to ${i.leadName}` : ""}.`,
      );
    },
  };
}

/** AI_BASE_URL (+ AI_API_KEY, AI_MODEL) selects an OpenAI-compatible endpoint; otherwise the built-in one. */
export function aiProvider(): AiProvider {
  const e = process.env;
  if (!e.AI_BASE_URL) return builtInProvider;
  const key = [e.AI_BASE_URL, e.AI_API_KEY, e.AI_MODEL, e.AI_EMBEDDING_MODEL, e.AI_TIMEOUT_MS].join("\n");
  if (cached?.key !== key) {
    const timeout = Number(e.AI_TIMEOUT_MS);
    cached = {
      key,
      provider: openAiCompatible({
        baseUrl: e.AI_BASE_URL,
        apiKey: e.AI_API_KEY,
        model: e.AI_MODEL || "gpt-4o-mini",
        embeddingModel: e.AI_EMBEDDING_MODEL || undefined,
        timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
      }),
    };
  }
  return cached.provider;
}
/** One client per configuration (the env is read on every call, so tests and operators can change it). */
let cached: { key: string; provider: AiProvider } | undefined;

/** Classification with a model never blocks ingestion: any failure falls back to the rules. */
export async function classifyWithFallback(text: string, useAi: boolean): Promise<Intent> {
  const p = aiProvider();
  if (!useAi || p === builtInProvider) return builtInProvider.classify(text);
  try {
    return await p.classify(text);
  } catch {
    return builtInProvider.classify(text);
  }
}
