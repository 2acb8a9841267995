import { newText, type Intent } from "./classify";

export interface DraftInput {
  leadName: string | null;
  senderName: string | null;
  subject: string;
  theirMessage: string;
  intent: Intent;
  customInstructions: string;
}

/**
 * The built-in draft, written without a model: short, honest, and about what the lead wrote. A time
 * the lead proposed is confirmed, a question they asked is quoted back and acknowledged; otherwise a
 * polite answer for the reply's intent. Deterministic: the same message always gives the same draft.
 */

const DAY = String.raw`(?:(?:next|this)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)(?:\s+(?:morning|afternoon|evening))?`;
/** Month names; May is left out: "may 3 of us join?" is a verb, not a date. */
const MONTH = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DATE = String.raw`(?:${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH})`;
const TIME = String.raw`(?:\d{1,2}(?::[0-5]\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:[0-5]\d|noon|midday)`;
const DAY_RE = new RegExp(String.raw`\b(?:${DATE}|${DAY})\b`, "i");
const TIME_RE = new RegExp(String.raw`\b${TIME}(?![\w])`, "i");
/** Words between a day and a time that still make one phrase ("Tuesday at 3pm", "3pm on Tuesday", "Friday, 10:30"). */
const JOINER = /^[\s,]*(?:at|@|around|from|after|on|the|,|\s)*[\s,]*$/i;
/** A clause that turns a time down ("Monday doesn't work", "I'm away until Friday"). */
const REFUSAL = /\b(?:not|no|never|can't|cannot|won't|don't|doesn't|isn't|unable|busy|away|off|out|until|unavailable)\b|n't\b/i;

/** Sentences of a text, line breaks counting as ends too. */
function sentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The time the lead proposes or accepts, as they wrote it ("Tuesday at 3pm"), or null. The first
 * clause naming a day, a date or a clock time wins, unless it turns that time down; a day and a time
 * a few joining words apart are one phrase.
 */
export function proposedTime(message: string): string | null {
  for (const clause of sentences(newText(message)).flatMap((s) => s.split(/[;]|,\s*(?:but|though|however)\b|\bbut\b/i))) {
    if (REFUSAL.test(clause)) continue;
    const day = DAY_RE.exec(clause);
    const time = TIME_RE.exec(clause);
    if (!day && !time) continue;
    if (day && time) {
      const [first, second] = day.index <= time.index ? [day, time] : [time, day];
      const gap = clause.slice(first.index + first[0].length, second.index);
      if (JOINER.test(gap)) return clause.slice(first.index, second.index + second[0].length).trim();
    }
    return ((day ?? time) as RegExpExecArray)[0].trim();
  }
  return null;
}

/** The questions the lead asked in their new text (sentences ending with "?"), at most two, each at most 300 characters. */
export function questionsAsked(message: string): string[] {
  return sentences(newText(message))
    .filter((s) => s.endsWith("?") && /[\p{L}\p{N}]/u.test(s))
    .slice(0, 2)
    .map((s) => (s.length > 300 ? `${s.slice(0, 297)}…?` : s));
}

/** The intents whose reply is worth confirming a time for and answering questions in. */
const ENGAGED: ReadonlySet<Intent> = new Set<Intent>(["INTERESTED", "QUESTION", "UNCLASSIFIED"]);

const BODY: Record<Intent, string> = {
  INTERESTED:
    "Great to hear from you! Would Tuesday or Thursday work for a 20-minute call? Happy to send a calendar invite for whichever suits you.",
  QUESTION: "Thanks for the question. Happy to explain — would a short call be easiest, or shall I put the details in writing?",
  NOT_INTERESTED: "Thanks for letting me know — I won't follow up on this. All the best.",
  WRONG_PERSON: "Thanks for letting me know. Could you point me to the right person for this?",
  UNSUBSCRIBE_REQUEST: "Understood — I've removed you from our list and you won't hear from us again.",
  OUT_OF_OFFICE: "Thanks — I'll follow up when you're back.",
  UNCLASSIFIED: "Thanks for getting back to me.",
};

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function templateDraft(i: DraftInput): string {
  const hi = i.leadName ? `Hi ${i.leadName},` : "Hi,";
  const bySign = i.senderName ? `\n\nBest,\n${i.senderName}` : "\n\nBest,";
  const parts: string[] = [];
  if (ENGAGED.has(i.intent)) {
    const time = proposedTime(i.theirMessage);
    // A question about the time itself ("Could we do Tuesday at 3pm?") is answered by confirming it.
    const questions = questionsAsked(i.theirMessage).filter((q) => !time || !q.includes(time));
    if (time)
      parts.push(`${capitalised(time)} works for me — I'll send a calendar invite for then. If anything changes, just let me know.`);
    if (questions.length) {
      const quoted = questions.map((q) => `> ${q}`).join("\n");
      const one = questions.length === 1;
      parts.push(
        `Thanks for your ${one ? "question" : "questions"}:\n\n${quoted}\n\n` +
          `Let me get you a proper answer on ${one ? "that" : "those"} — I'll follow up with the details shortly.`,
      );
      if (!time && i.intent === "INTERESTED") parts.push("In the meantime, would Tuesday or Thursday work for a 20-minute call?");
    }
  }
  if (!parts.length) parts.push(BODY[i.intent]);
  return `${hi}\n\n${parts.join("\n\n")}${bySign}`;
}
