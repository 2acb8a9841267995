/** A step's copy, as the sequence editor holds it. */
export interface StepCopy {
  subject: string | null;
  bodyTemplate: string;
}

/** A language model's answer to one prompt (the AI provider's chat), or null when none is configured. */
export type Complete = ((system: string, user: string) => Promise<string>) | null;

const TOKEN = /\{\{\s*[^{}]+?\s*\}\}/g;
const GREETING = /^(hi|hello|hey|dear|good (morning|afternoon)|greetings)\b/i;
const SIGN_OFF = /^(best|thanks|thank you|cheers|regards|kind regards|all the best|talk soon|warmly|sincerely)\b/i;

function tokens(text: string): string[] {
  return [...new Set(text.match(TOKEN) ?? [])].sort();
}

/**
 * The deterministic rewrite (no AI endpoint, or it failed): "lead with the ask". The greeting and
 * sign-off stay; the last paragraph of the message (usually the call to action) moves to the front,
 * or with a single paragraph its last sentence does. Nothing is invented, so every {{variable}} and
 * every claim stays the user's own; the subject loses its words past the fifth (short subjects).
 */
export function fallbackRewrite(copy: StepCopy): StepCopy {
  const paras = copy.bodyTemplate.replace(/\r\n/g, "\n").split(/\n\s*\n/);
  const head = paras.length > 1 && GREETING.test(paras[0].trim()) ? [paras.shift()!] : [];
  const tail = paras.length > 1 && SIGN_OFF.test(paras[paras.length - 1].trim()) ? [paras.pop()!] : [];
  let middle = paras;
  if (middle.length > 1) middle = [middle[middle.length - 1], ...middle.slice(0, -1)];
  else if (middle.length === 1) {
    const sentences = middle[0].match(/[^.!?]+[.!?]+(\s+|$)|[^.!?]+$/g)?.map((x) => x.trim()) ?? [middle[0]];
    if (sentences.length > 1) middle = [[sentences[sentences.length - 1], ...sentences.slice(0, -1)].join(" ")];
  }
  let body = [...head, ...middle, ...tail].join("\n\n");
  if (body === copy.bodyTemplate) body = `${copy.bodyTemplate.trim()}\n\nWorth a quick reply either way?`;
  const words = copy.subject?.trim().split(/\s+/) ?? [];
  const subject = copy.subject === null ? null : words.length > 5 ? words.slice(0, 5).join(" ") : copy.subject;
  return { subject, bodyTemplate: body };
}

/** The model's rewrite when it is well-formed JSON that keeps exactly the step's {{variables}}; else null. */
export function parseRewrite(answer: string, copy: StepCopy): StepCopy | null {
  const json = answer.match(/\{[\s\S]*\}/)?.[0];
  if (!json) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  const o = parsed as { subject?: unknown; body?: unknown; bodyTemplate?: unknown };
  const body = typeof o.bodyTemplate === "string" ? o.bodyTemplate : typeof o.body === "string" ? o.body : null;
  if (!body?.trim() || tokens(body).join() !== tokens(copy.bodyTemplate).join()) return null;
  const subject = copy.subject === null ? null : typeof o.subject === "string" && o.subject.trim() ? o.subject.trim() : copy.subject;
  return { subject, bodyTemplate: body.trim() };
}

/** A fresh version of a fatigued step: the AI provider's when it answers well, else the fallback. */
export async function rewriteCopy(copy: StepCopy, reason: string | null, complete: Complete): Promise<StepCopy & { provider: string }> {
  if (complete) {
    try {
      const answer = await complete(
        "You rewrite cold outreach emails whose copy has gone stale. Keep the meaning, facts and offer; change the wording and " +
          "the opening. Keep every {{variable}} token exactly as written and add none. Plain text, under 150 words. " +
          'Answer with JSON only: {"subject": "...", "body": "..."}.',
        `${reason ? `Why it is stale: ${reason}\n\n` : ""}Subject: ${copy.subject ?? "(follow-up, no subject)"}\n\nBody:\n${copy.bodyTemplate}`,
      );
      const parsed = parseRewrite(answer, copy);
      if (parsed) return { ...parsed, provider: "ai" };
    } catch {
      // An endpoint that errs or times out falls back; a rewrite is always returned.
    }
  }
  return { ...fallbackRewrite(copy), provider: "fallback" };
}
