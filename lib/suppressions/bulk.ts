import { z } from "zod";
import { suppressions } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { normalizeDomain, normalizeEmail } from "../emails";
import { newId } from "../ids";

/** The most entries one POST /suppressions/bulk takes: a CSV import sends its rows in batches of this size or fewer. */
export const BULK_SUPPRESSIONS_MAX = 1000;

const kind = z.enum(["email", "domain"]);

export const bulkSuppressionsBody = z
  .object({
    entries: z
      .array(
        z
          .object({
            value: z.string().max(1000),
            kind: kind.optional().describe("email or domain; when omitted, a value with a local part is an address, any other a domain"),
          })
          .strict(),
      )
      .min(1, "send at least one entry")
      .max(BULK_SUPPRESSIONS_MAX, `at most ${BULK_SUPPRESSIONS_MAX} entries per request: send more in batches`),
  })
  .strict();
export type BulkSuppressionsInput = z.infer<typeof bulkSuppressionsBody>;

export const bulkResultSchema = z.object({
  index: z.number().int().describe("The entry's position in the request, from 0"),
  value: z.string().describe("As sent"),
  kind: kind.nullable().describe("What the value was taken for; null when it is neither an address nor a domain"),
  normalized: z.string().nullable().describe("The lower-cased address or domain stored; null when invalid"),
  result: z
    .enum(["added", "existing", "duplicate", "invalid"])
    .describe("added now; existing: already on the list; duplicate: the same value earlier in this request; invalid: see error"),
  id: z.string().nullable().describe("The new entry's id when added"),
  duplicateOf: z.number().int().nullable().describe("For a duplicate: the index of the earlier entry with the same value"),
  error: z.string().nullable(),
});
export const bulkSuppressionsResultSchema = z.object({
  added: z.number().int(),
  existing: z.number().int(),
  duplicate: z.number().int(),
  invalid: z.number().int(),
  results: z.array(bulkResultSchema),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

type Classified = { kind: "email" | "domain"; normalized: string } | { kind: "email" | "domain" | null; error: string };

/** What an entry is and its stored form: "@acme.com" and "acme.com" are domains, "jo@acme.com" an address. */
export function classifySuppression(value: string, asKind?: "email" | "domain"): Classified {
  const v = value.trim();
  if (!v) return { kind: asKind ?? null, error: "the value is empty" };
  const k = asKind ?? (v.lastIndexOf("@") > 0 ? "email" : "domain");
  if (k === "email") {
    const n = normalizeEmail(v);
    return n.ok ? { kind: "email", normalized: n.email.toLowerCase() } : { kind: "email", error: n.reason };
  }
  const d = normalizeDomain(v);
  if (d) return { kind: "domain", normalized: d };
  return asKind
    ? { kind: "domain", error: `"${v}" is not a valid domain` }
    : { kind: null, error: `"${v}" is neither an email address nor a domain` };
}

/**
 * Adds many addresses and domains, with one result per entry in the order sent: malformed entries are
 * reported and the rest are still added, in one statement (all of this request's new entries, or none).
 */
export async function bulkAddSuppressions(ctx: Ctx, input: BulkSuppressionsInput, reason = "import") {
  requireAccess(ctx, "write");
  const results: BulkResult[] = [];
  const firstOf = new Map<string, number>();
  for (const [index, e] of input.entries.entries()) {
    const c = classifySuppression(e.value, e.kind);
    const base = { index, value: e.value, id: null, duplicateOf: null };
    if ("error" in c) {
      results.push({ ...base, kind: c.kind, normalized: null, result: "invalid", error: c.error });
      continue;
    }
    const key = `${c.kind}:${c.normalized}`;
    const earlier = firstOf.get(key);
    if (earlier !== undefined) {
      results.push({ ...base, ...c, result: "duplicate", duplicateOf: earlier, error: `the same ${c.kind} as entry ${earlier}` });
      continue;
    }
    firstOf.set(key, index);
    results.push({ ...base, ...c, result: "existing", error: null });
  }
  const fresh = results.filter((r) => r.result === "existing");
  const inserted = fresh.length
    ? await ctx.db
        .insert(suppressions)
        .values(
          fresh.map((r) => ({
            id: newId("sup"),
            workspaceId: ctx.workspaceId,
            kind: r.kind!,
            value: r.normalized!,
            reason,
            // The injected clock, as a single add: a lead's timeline orders its suppression by this time.
            createdAt: ctx.clock.now(),
          })),
        )
        .onConflictDoNothing()
        .returning({ id: suppressions.id, kind: suppressions.kind, value: suppressions.value })
    : [];
  const idOf = new Map(inserted.map((s) => [`${s.kind}:${s.value}`, s.id]));
  for (const r of fresh) {
    const id = idOf.get(`${r.kind}:${r.normalized}`);
    if (id) Object.assign(r, { result: "added", id });
  }
  const count = (k: BulkResult["result"]) => results.filter((r) => r.result === k).length;
  return { added: count("added"), existing: count("existing"), duplicate: count("duplicate"), invalid: count("invalid"), results };
}
