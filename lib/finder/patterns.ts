/**
 * Email address patterns for enrichment: the local part a company builds from a person's name. A
 * domain's own pattern is learned from colleagues whose address is already known (leads and directory
 * people at that domain); without one, the common patterns are tried in the order they are most often
 * seen in business mail.
 */

export const PATTERNS = [
  "first.last",
  "first",
  "flast",
  "firstlast",
  "firstl",
  "first_last",
  "f.last",
  "last",
  "last.first",
  "lastf",
] as const;
export type Pattern = (typeof PATTERNS)[number];

/** At most this many guesses are tried per person (politeness: each is a RCPT TO). */
export const MAX_CANDIDATES = 6;

/** A name as it can appear in an address: lower-case ASCII letters (accents dropped), no spaces or punctuation. */
export function namePart(name: string | null | undefined): string {
  return (name ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
}

/** The local part of `pattern` for a name; undefined when the pattern needs a part the name lacks. */
export function localPart(pattern: Pattern, first: string, last: string): string | undefined {
  const f = first[0];
  const l = last[0];
  const parts: Record<Pattern, string | false> = {
    "first.last": !!first && !!last && `${first}.${last}`,
    first: !!first && first,
    flast: !!f && !!last && `${f}${last}`,
    firstlast: !!first && !!last && `${first}${last}`,
    firstl: !!first && !!l && `${first}${l}`,
    first_last: !!first && !!last && `${first}_${last}`,
    "f.last": !!f && !!last && `${f}.${last}`,
    last: !!last && last,
    "last.first": !!first && !!last && `${last}.${first}`,
    lastf: !!last && !!f && `${last}${f}`,
  };
  return parts[pattern] || undefined;
}

/** Which pattern (if any) an address follows for the name it belongs to. */
export function patternOf(email: string, firstName: string | null, lastName: string | null): Pattern | undefined {
  const local = email.split("@")[0]?.toLowerCase() ?? "";
  const first = namePart(firstName);
  const last = namePart(lastName);
  if (!first && !last) return undefined;
  return PATTERNS.find((p) => localPart(p, first, last) === local);
}

/** A domain's patterns from its known colleagues, most used first (ties: the common order). */
export function learnedPatterns(colleagues: { email: string; firstName: string | null; lastName: string | null }[]): Pattern[] {
  const counts = new Map<Pattern, number>();
  for (const c of colleagues) {
    const p = patternOf(c.email, c.firstName, c.lastName);
    if (p) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || PATTERNS.indexOf(a[0]) - PATTERNS.indexOf(b[0])).map(([p]) => p);
}

/**
 * The addresses to try for a person at `domain`: the colleagues' patterns first, then the common ones,
 * without repeats, at most MAX_CANDIDATES. Empty when the name gives nothing to build from.
 */
export function candidateEmails(
  person: { firstName: string | null; lastName: string | null },
  domain: string,
  learned: Pattern[] = [],
): string[] {
  const first = namePart(person.firstName);
  const last = namePart(person.lastName);
  const order = [...learned, ...PATTERNS.filter((p) => !learned.includes(p))];
  const out: string[] = [];
  for (const p of order) {
    const local = localPart(p, first, last);
    const email = local && `${local}@${domain}`;
    if (email && !out.includes(email)) out.push(email);
    if (out.length === MAX_CANDIDATES) break;
  }
  return out;
}
