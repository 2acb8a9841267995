import { randomInt } from "node:crypto";
import { ANSWER_CLOSERS, ANSWER_LINES, ANSWER_OPENERS, CLOSERS, CONNECTORS, OPENERS, SIGNOFFS, SLOTS } from "./content-phrases";
import { TOPICS, type Topic } from "./content-topics";

/**
 * Warmup mail reads like ordinary business correspondence between colleagues: a subject from one of
 * many topics, a greeting, an opening, two to four sentences about the topic, a closing line and a
 * sign-off. Every sentence is put together from choices of its own (content-topics.ts, content-phrases.ts), so no fixed
 * text, pattern or tag repeats for a filter to learn. The rules the tests hold it to (docs/warmup.md):
 * a greeting always has a name or a word before its comma, no topic touches money, logins, parcels or
 * urgency, and a day's mail has no two equal bodies and few repeated phrases.
 */

const pick = <T>(xs: readonly T[]): T => xs[randomInt(xs.length)];

/** Words that start a sentence and keep their capital after a connector ("Also, Priya said …"). */
const PROPER = new Set(["I", ...SLOTS.first, ...SLOTS.first2, ...SLOTS.day, ...SLOTS.month]);

/** What an email's `{topic}` and `{name}` are: the topic's noun phrases, the recipient's first name (none: left out). */
interface Own {
  topic?: readonly string[];
  name?: string | null;
}

/** Expands `[a|b]` choices and `{slot}` phrases (nested, innermost first) and tidies the spaces an empty choice leaves. */
export function expand(text: string, own: Own = {}): string {
  let out = own.name ? text : text.replace(/,? ?\{name\}/g, "");
  const slot = (name: string): readonly string[] | undefined =>
    name === "topic" ? own.topic : name === "name" && own.name ? [own.name] : SLOTS[name];
  for (let i = 0; i < 20 && /[[{]/.test(out); i++) {
    out = out
      .replace(/\[([^[\]{}]*)\]/g, (_, alts: string) => pick(alts.split("|")))
      .replace(/\{n\}/g, () => String(randomInt(1, 5)))
      .replace(/\{([A-Za-z0-9]+)\}/g, (whole, name: string) => {
        const xs = slot(name[0].toLowerCase() + name.slice(1));
        if (!xs) return whole;
        const x = expand(pick(xs), own);
        return name[0] === name[0].toUpperCase() ? x[0].toUpperCase() + x.slice(1) : x;
      });
  }
  return out
    .replace(/ {2,}/g, " ")
    .replace(/ ([.,?!:])/g, "$1")
    .replace(/,([.?!])/g, "$1")
    .trim();
}

/** Local parts that name a role or a machine, not a person: no one is greeted "Hi Sales,". */
const NOT_NAMES = new Set(
  (
    "info sales support admin contact hello hi hey team office mail email noreply no reply bounce billing accounts account " +
    "marketing hr jobs careers help service enquiries inquiries news newsletter press media warmup seed test inbox postmaster " +
    "webmaster ops dev it finance legal orders shop store partners user notifications alerts security abuse"
  ).split(" "),
);

/** Capitalised when `word` looks like a first name (letters, a vowel, not a role); null otherwise. */
function asName(word: string): string | null {
  if (!/^[a-z]{2,20}$/i.test(word) || !/[aeiouy]/i.test(word) || NOT_NAMES.has(word.toLowerCase())) return null;
  return word[0].toUpperCase() + word.slice(1).toLowerCase();
}

/** The first name a message greets: the local part of the address when it looks like a name, else null (a greeting without a name). */
export function greetingName(email: string): string | null {
  return asName(email.split("@")[0].split(/[._+-]/)[0]);
}

const NAMED = [
  "Hi {name},",
  "Hello {name},",
  "Hey {name},",
  "Good morning {name},",
  "Morning {name},",
  "Dear {name},",
  "{name},",
  "Hi again {name},",
];
const UNNAMED = ["Hi there,", "Hello there,", "Hi,", "Hello,", "Hey there,", "Good morning,", "Good afternoon,", "Morning,"];

/** A greeting line: with the name when there is one, else one that needs none — never a bare "there," or ",". */
function greeting(name: string | null): string {
  return name ? pick(NAMED).replace("{name}", name) : pick(UNNAMED);
}

/**
 * The name a message is signed with: a sender name as given; an address's local part ("ann.baker")
 * as a name ("Ann Baker") when every part looks like one; else none (the sign-off stands alone).
 */
export function signatureName(sender: string): string | null {
  const s = sender.trim();
  if (!s) return null;
  if (/\s|[A-Z]/.test(s)) return s;
  const parts = s.split(/[._+-]/).map(asName);
  return parts.every((p) => p !== null) ? parts.join(" ") : null;
}

function sign(sender: string): string {
  const name = signatureName(sender);
  return name ? `${pick(SIGNOFFS)}\n${name}` : pick(SIGNOFFS);
}

/** A sentence after a connector ("Also, the move …"); a question or the paragraph's first sentence stands alone. */
function connected(sentence: string, first: boolean): string {
  const c = first || sentence.includes("?") ? "" : expand(pick(CONNECTORS));
  if (!c) return sentence;
  const word = sentence.split(/[\s,']/)[0];
  return `${c} ${PROPER.has(word) ? sentence : sentence[0].toLowerCase() + sentence.slice(1)}`;
}

/** A sentence of `text`, with a capital letter whatever phrase it starts with ("the new starters asked …"). */
function sentence(text: string, own: Own): string {
  const s = expand(text, own);
  return s && s[0].toUpperCase() + s.slice(1);
}

/** `n` different items of `xs` in random order. */
function sample<T>(xs: readonly T[], n: number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

/** Sentences as one paragraph, or two when there are four or more (sometimes). */
function paragraphs(sentences: string[]): string {
  const cut = sentences.length >= 4 && randomInt(2) ? randomInt(2, sentences.length - 1) : sentences.length;
  const parts = [sentences.slice(0, cut), sentences.slice(cut)].filter((p) => p.length);
  return parts.map((p) => p.map((s, i) => connected(s, i === 0)).join(" ")).join("\n\n");
}

/** A new warmup conversation: subject and body. */
export function newConversation(toEmail: string, senderName: string): { subject: string; body: string } {
  const topic: Topic = pick(TOPICS);
  const own = { topic: topic.topic, name: greetingName(toEmail) };
  const opener = sentence(pick(OPENERS), own);
  const lines = sample(topic.lines, randomInt(2, 5)).map((l) => sentence(l, own));
  const text = paragraphs([...(opener ? [opener] : []), ...lines]);
  const body = [greeting(own.name), "", text, "", expand(pick(CLOSERS), own), "", sign(senderName)];
  return { subject: expand(pick(topic.subjects), own), body: body.join("\n") };
}

/** An answer in a warmup conversation. */
export function answer(toEmail: string, senderName: string): string {
  const own = { name: greetingName(toEmail) };
  const lines = [pick(ANSWER_OPENERS), ...sample(ANSWER_LINES, randomInt(1, 3)), pick(ANSWER_CLOSERS)]
    .map((l) => sentence(l, own))
    .filter(Boolean);
  return [greeting(own.name), "", lines.join(" "), "", sign(senderName)].join("\n");
}

/** "Re: subject", once. */
export function replySubject(subject: string): string {
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}
