/**
 * Column mapping for a CSV import onto a fixed list of fields: each column fills one field or is
 * left out. The fields carry the header spellings they are guessed from (compared lower-cased, letters
 * and digits only), so "First Name", "first_name" and "FIRSTNAME" all guess the same field.
 */

export interface MappingField<K extends string> {
  key: K;
  label: string;
  /** Header spellings, already normalised (see normaliseHeader). */
  aliases: string[];
}

/** Where one column goes: a field, or nowhere. */
export type FieldTarget<K extends string> = K | "ignore";

export function normaliseHeader(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** A first guess per column: a known header fills its field (each field once, the first column wins). */
export function guessFieldMapping<K extends string>(fields: readonly MappingField<K>[], headers: string[]): FieldTarget<K>[] {
  const taken = new Set<K>();
  return headers.map((h) => {
    const n = normaliseHeader(h);
    const f = fields.find((x) => !taken.has(x.key) && (x.aliases.includes(n) || normaliseHeader(x.key) === n));
    if (!f) return "ignore";
    taken.add(f.key);
    return f.key;
  });
}

/** "X is mapped from more than one column." for each field filled twice. */
export function duplicateFieldProblems<K extends string>(fields: readonly MappingField<K>[], mapping: FieldTarget<K>[]): string[] {
  return fields.filter((f) => mapping.filter((m) => m === f.key).length > 1).map((f) => `${f.label} is mapped from more than one column.`);
}

/** One CSV row as field → value: trimmed, empty cells left out (a blank cell means "unknown"). */
export function rowToFields<K extends string>(
  row: Record<string, string>,
  headers: string[],
  mapping: FieldTarget<K>[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  headers.forEach((h, i) => {
    const target = mapping[i];
    const value = (row[h] ?? "").trim();
    if (value && target && target !== "ignore") out[target] = value;
  });
  return out;
}
