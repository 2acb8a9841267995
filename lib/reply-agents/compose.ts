import type { KnowledgeHit } from "./search";
import { newText } from "../ai/classify";

export type Tone = "PROFESSIONAL" | "FRIENDLY" | "CASUAL" | "FORMAL";

/** Who answers: the agent's fields that shape a reply. */
export interface AgentVoice {
  name: string;
  companyName: string | null;
  tone: Tone;
  additionalInfo: string | null;
}

export interface AnswerInput {
  agent: AgentVoice;
  leadName: string | null;
  senderName: string | null;
  theirMessage: string;
  passages: Pick<KnowledgeHit, "snippet" | "source">[];
}

/** A language model's answer to a system and a user prompt; null without an AI endpoint. */
export type Complete = ((system: string, user: string) => Promise<string>) | null;

const WORDING: Record<
  Tone,
  { hi: (n: string | null) => string; thanks: string; intro: string; close: string; sign: string; nudge: string }
> = {
  PROFESSIONAL: {
    hi: (n) => (n ? `Hi ${n},` : "Hello,"),
    thanks: "Thank you for your message.",
    intro: "Here is what I can tell you:",
    close: "I hope this helps. Let me know if you have any other questions.",
    sign: "Best regards",
    nudge: "I wanted to follow up on my previous note. Did it answer your question, or is there anything else I can help with?",
  },
  FRIENDLY: {
    hi: (n) => (n ? `Hi ${n}!` : "Hi there!"),
    thanks: "Thanks so much for getting back to me!",
    intro: "Here's what I can share:",
    close: "Hope that helps — happy to answer anything else!",
    sign: "Cheers",
    nudge: "Just checking in on my last message — did that help? Happy to answer anything else!",
  },
  CASUAL: {
    hi: (n) => (n ? `Hey ${n},` : "Hey,"),
    thanks: "Thanks for the note.",
    intro: "Quick answer:",
    close: "Anything else, just shout.",
    sign: "Cheers",
    nudge: "Circling back on my last note — anything else you'd like to know?",
  },
  FORMAL: {
    hi: (n) => (n ? `Dear ${n},` : "Dear Sir or Madam,"),
    thanks: "Thank you for your enquiry.",
    intro: "Please find the relevant information below:",
    close: "Should you require any further information, please do not hesitate to contact me.",
    sign: "Yours sincerely",
    nudge: "I am writing to follow up on my previous message. Please let me know whether you require any further information.",
  },
};

function signature(a: AgentVoice, senderName: string | null): string {
  const who = [senderName, a.companyName].filter(Boolean).join("\n");
  return `${WORDING[a.tone].sign},${who ? `\n${who}` : ""}`;
}

/** A passage cut to at most `max` characters at a sentence end (or a word end), for quoting. */
export function quotable(snippet: string, max = 600): string {
  const s = snippet.replace(/\s+/g, " ").trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
  return end > max / 3 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(" "))} …`;
}

/** The deterministic answer (no AI endpoint, or it failed): the best passage quoted in a polite template, in the agent's tone. */
export function fallbackAnswer(i: AnswerInput): string {
  const w = WORDING[i.agent.tone];
  const best = i.passages[0];
  const quote = quotable(best.snippet)
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
  return `${w.hi(i.leadName)}\n\n${w.thanks} ${w.intro}\n\n${quote}\n\n${w.close}\n\n${signature(i.agent, i.senderName)}`;
}

/** The follow-up after followUpDays without an answer from the lead (a template in the agent's tone). */
export function followUpText(agent: AgentVoice, leadName: string | null, senderName: string | null): string {
  const w = WORDING[agent.tone];
  return `${w.hi(leadName)}\n\n${w.nudge}\n\n${signature(agent, senderName)}`;
}

function prompts(i: AnswerInput): [string, string] {
  const a = i.agent;
  const system =
    `You are ${a.name}${a.companyName ? ` at ${a.companyName}` : ""}, answering a lead's email. Tone: ${a.tone.toLowerCase()}. ` +
    "Answer only from the numbered passages; do not invent facts, prices or promises. If they do not answer the question, say so " +
    `and offer to find out. Plain text, no subject line, under 150 words.${a.additionalInfo ? ` ${a.additionalInfo}` : ""}`;
  const passages = i.passages.map((p, n) => `[${n + 1}] ${quotable(p.snippet, 900)}`).join("\n\n");
  const user = `Passages:\n${passages}\n\nTheir message:\n${newText(i.theirMessage).slice(0, 4000)}\n\nWrite the answer${
    i.leadName ? ` to ${i.leadName}` : ""
  }${i.senderName ? `, signed ${i.senderName}` : ""}.`;
  return [system, user];
}

/**
 * The agent's answer grounded in its passages: the AI provider's when it answers, else (no endpoint,
 * an error, a timeout, an empty answer) the fallback — an answer is always made, never an exception.
 */
export async function composeAnswer(i: AnswerInput, complete: Complete): Promise<{ body: string; provider: "ai" | "fallback" }> {
  if (complete) {
    try {
      const body = (await complete(...prompts(i))).trim();
      if (body) return { body, provider: "ai" };
    } catch {
      // Falls back below: the answer never waits on a failing endpoint.
    }
  }
  return { body: fallbackAnswer(i), provider: "fallback" };
}
