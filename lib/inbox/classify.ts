export type Intent =
  | "UNCLASSIFIED"
  | "INTERESTED"
  | "NOT_INTERESTED"
  | "OUT_OF_OFFICE"
  | "WRONG_PERSON"
  | "UNSUBSCRIBE_REQUEST"
  | "QUESTION";

/** The new text of a reply: quoted lines and everything after "On … wrote:" / a forwarded original removed. */
export function newText(text: string): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const out: string[] = [];
  for (const line of lines) {
    if (
      /^\s*On .{4,200}wrote:\s*$/i.test(line) ||
      /^-{2,}\s*Original Message\s*-{2,}/i.test(line) ||
      (/^\s*From:\s.+/i.test(line) && out.length > 0)
    )
      break;
    if (/^\s*>/.test(line)) continue;
    out.push(line);
  }
  return out.join("\n").trim();
}

const AUTO_SUBJECT =
  /^\s*(automatic reply|auto[- ]?reply|autoreply|out of (the )?office|ooo\b|abwesenheitsnotiz|réponse automatique|respuesta automática|risposta automatica|automatisch antwoord)/i;
const AUTO_PHRASES = [
  /\b(i am|i'm|i will be)\s+(currently\s+)?(out of (the )?office|on (annual |parental |maternity |paternity )?leave|on vacation|on holiday|away from (the |my )?(office|desk))\b/i,
  /\bthis is an automatic(ally generated)? (reply|response|message)\b/i,
  /\bi (will|shall) (be back|return) (on|in|after)\b.{0,40}\b(limited|no) access to (my )?e-?mail\b/i,
  /\bwith (limited|no) access to (my )?e-?mail\b/i,
];

/**
 * Automatic replies by the three rules of spec 2.9: the Auto-Submitted / X-Autoreply / Precedence
 * headers, an automatic-reply subject, or an unmistakable out-of-office phrase in the text.
 */
export function isAutomatic(headers: Map<string, unknown> | Record<string, unknown>, subject: string, text: string): boolean {
  const get = (k: string) => String((headers instanceof Map ? headers.get(k) : headers[k]) ?? "").toLowerCase();
  const autoSubmitted = get("auto-submitted");
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (get("x-autoreply") || get("x-autorespond")) return true;
  if (get("precedence") === "auto_reply") return true;
  if (AUTO_SUBJECT.test(subject)) return true;
  const body = newText(text);
  return AUTO_PHRASES.some((re) => re.test(body));
}

const RULES: [Intent, RegExp][] = [
  [
    "UNSUBSCRIBE_REQUEST",
    /\b(unsubscribe|remove me|take me off|opt(ed)?[- ]out|stop (e-?mailing|contacting|sending)|do not (e-?mail|contact)|don'?t (e-?mail|contact) me|no more e-?mails)\b/i,
  ],
  [
    "WRONG_PERSON",
    /\b(wrong person|not the (right|correct|best) (person|contact)|no longer (with|at|works? (at|for))|(has|have) left the company|not responsible for|reach out to (my colleague|\w+ instead))\b/i,
  ],
  [
    "NOT_INTERESTED",
    /\b(not interested|no thanks|no,? thank you|not a (good )?fit|we'?re all set|not (right )?now|not at this time|no need|we already (have|use)|please pass)\b/i,
  ],
  [
    "INTERESTED",
    /\b(interested|sounds (good|great|interesting)|let'?s (talk|chat|connect|set up|schedule)|(book|schedule|set up) (a |some )?(call|meeting|demo|time)|happy to (chat|talk|connect)|tell me more|send (me )?(more|details|info)|yes,? please|count me in|i'?d (love|like) to)\b/i,
  ],
];

/**
 * The built-in, deterministic classifier (used when no AI provider is configured, and as the fallback).
 * A person's reply is never OUT_OF_OFFICE; only automatic replies are (spec 2.9).
 */
export function classify(input: { automatic: boolean; text: string }): Intent {
  if (input.automatic) return "OUT_OF_OFFICE";
  const body = newText(input.text);
  for (const [intent, re] of RULES) if (re.test(body)) return intent;
  if (/\?/.test(body)) return "QUESTION";
  return "UNCLASSIFIED";
}
