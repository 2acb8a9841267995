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
  classify(text: string): Promise<Intent>;
  draft(input: DraftInput): Promise<string>;
}

const INTENTS: Intent[] = ["INTERESTED", "NOT_INTERESTED", "WRONG_PERSON", "UNSUBSCRIBE_REQUEST", "QUESTION", "UNCLASSIFIED"];

/** Deterministic answers without a model: the rule classifier and a short, honest template. */
export const builtInProvider: AiProvider = {
  name: "built-in",
  model: null,
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

async function chat(
  baseUrl: string,
  apiKey: string | undefined,
  model: string,
  system: string,
  user: string,
  timeoutMs = 20_000,
): Promise<string> {
  const res = await fetch(`${baseUrl.replace(/\/$/, "")}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({
      model,
      temperature: 0.2,
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`AI endpoint answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const json = (await res.json()) as { choices?: { message?: { content?: string } }[] };
  const content = json.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error("AI endpoint gave no message content");
  return content.trim();
}

export function openAiCompatible(baseUrl: string, apiKey: string | undefined, model: string): AiProvider {
  return {
    name: "openai-compatible",
    model,
    async classify(text) {
      const out = await chat(
        baseUrl,
        apiKey,
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
        baseUrl,
        apiKey,
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
  const base = process.env.AI_BASE_URL;
  return base ? openAiCompatible(base, process.env.AI_API_KEY, process.env.AI_MODEL ?? "gpt-4o-mini") : builtInProvider;
}

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
