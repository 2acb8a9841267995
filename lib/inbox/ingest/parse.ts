import { type AddressObject, type ParsedMail, simpleParser } from "mailparser";
import type { Address } from "../../../db/schema";

/** textAsHtml (a linkified copy of the text) is never used: not generating it halves the parse time. */
export const PARSE_OPTIONS = { skipTextToHtml: true, skipTextLinks: true } as const;

/**
 * A downloaded message parsed, or why it cannot be: malformed beyond parsing, or past mailparser's
 * limits (a MIME tree nested or split into thousands of parts, a header over 2 MB) — it is then passed
 * over with that reason in the log.
 */
export function parseSource(source: Buffer): Promise<ParsedMail | Error> {
  return simpleParser(source, PARSE_OPTIONS).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
}

/**
 * Postgres text and jsonb refuse NUL characters, and jsonb a lone UTF-16 surrogate (which a broken
 * encoding can leave in decoded text): a message that carries one is stored without them.
 */
export function clean(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what Postgres text cannot store
  return /[\u0000\uD800-\uDFFF]/.test(s)
    ? // biome-ignore lint/suspicious/noControlCharactersInRegex: as above
      s.replace(/\u0000/g, "").replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    : s;
}

/** A header's addresses, lower-cased and cleaned; entries without an address are left out. */
export function addresses(a: AddressObject | AddressObject[] | undefined): Address[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list
    .flatMap((x) => x.value)
    .filter((v) => v.address)
    .map((v) => ({ name: v.name ? clean(v.name) : null, address: clean(v.address!.toLowerCase()) }));
}

/** The Message-IDs a message names in In-Reply-To and References, each once. */
export function refsOf(m: ParsedMail): string[] {
  const r = m.references ? (Array.isArray(m.references) ? m.references : [m.references]) : [];
  return [...new Set([...(m.inReplyTo ? [m.inReplyTo] : []), ...r].flatMap((x) => clean(x).split(/\s+/)).filter(Boolean))];
}

/** The message's own Date, or `now` when it has none or an unreadable one. */
export function dateOf(m: ParsedMail, now: Date): Date {
  return m.date && !Number.isNaN(m.date.getTime()) ? m.date : now;
}

export const unique = <T>(xs: T[]): T[] => [...new Set(xs)];
