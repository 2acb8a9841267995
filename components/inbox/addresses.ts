import type { Address } from "./types";

/** Splits "a@x.test, Kim <k@y.test>; \"Lee, Ann\" <a@z.test>" at commas, semicolons and line breaks outside quotes and <…>. */
function split(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let angle = false;
  for (const ch of text) {
    if (ch === '"' && !angle) quoted = !quoted;
    else if (ch === "<" && !quoted) angle = true;
    else if (ch === ">" && !quoted) angle = false;
    if (!quoted && !angle && /[,;\n]/.test(ch)) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

/**
 * An address field's text as the API's `{ name, address }` list; what is clearly not an address is
 * reported here (the server checks the rest and answers with the field's index).
 */
export function parseAddresses(text: string): { list: Address[]; invalid: string[] } {
  const list: Address[] = [];
  const invalid: string[] = [];
  for (const part of split(text)) {
    const m = /^(.*)<([^<>]+)>$/.exec(part);
    const address = (m ? m[2] : part).trim();
    const name = m
      ? m[1]
          .trim()
          .replace(/^"(.*)"$/, "$1")
          .trim()
      : "";
    if (!/^[^\s@<>",;]+@[^\s@<>",;]+$/.test(address)) invalid.push(part);
    else list.push({ name: name || null, address });
  }
  return { list, invalid };
}

/** The text of an address field: `Kim Lee <kim@x.test>`, names with commas or quotes in quotes. */
export function formatAddresses(list: Address[]): string {
  return list
    .map((a) => {
      if (!a.name) return a.address;
      const name = /[",;<>@]/.test(a.name) ? `"${a.name.replace(/"/g, "'")}"` : a.name;
      return `${name} <${a.address}>`;
    })
    .join(", ");
}
