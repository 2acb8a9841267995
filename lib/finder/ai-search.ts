import { aiProviderFor } from "../ai/resolve";
import { useCredit } from "../ai/settings";
import { requireAccess, type Ctx } from "../ctx";
import { parseQuery } from "./query-parser";
import { FILTER_NAMES, type FinderFilters } from "./schemas";
import { findPeople } from "./search";
import { COMPANY_SIZES, DEPARTMENTS, normalizeCompanySize, normalizeDepartment, normalizeSeniority, SENIORITIES } from "./vocabulary";

/**
 * POST /finder/ai-search: a sentence → filters → the first page of people. With an AI endpoint the model
 * is asked for the filters as JSON (one AI credit per question; out of credits → 429 AI_CREDITS); its
 * answer is kept only where it fits the vocabulary. Without an endpoint, or when the model fails or
 * answers nothing usable, the rule-based parser (query-parser.ts) reads the sentence.
 */

const SYSTEM = [
  "You turn a sentence describing people to find into search filters. Answer with one JSON object and nothing else.",
  `Keys (all optional, each an array of strings unless noted): ${FILTER_NAMES.join(", ")} (keywords: one string).`,
  `seniorities only from: ${SENIORITIES.join(", ")}. departments only from: ${DEPARTMENTS.join(", ")}.`,
  `companySizes only from: ${COMPANY_SIZES.join(", ")} (every band a head-count range overlaps).`,
  "countries: English country names. industries and technologies: lower-case words. titles: short job titles.",
  "Leave out a key the sentence does not mention.",
].join(" ");

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "").map((x) => x.trim().slice(0, 200)) : [];

function fitted<T>(v: unknown, normalize: (s: string) => T | undefined): T[] {
  return [...new Set(strings(v).flatMap((s) => normalize(s) ?? []))];
}

/** A model's JSON answer → filters, keeping only values each filter accepts. Undefined when nothing usable. */
export function filtersFromModel(text: string): FinderFilters | undefined {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!json) return undefined;
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof o !== "object" || o === null) return undefined;
  const f: FinderFilters = {
    titles: strings(o.titles),
    seniorities: fitted(o.seniorities, normalizeSeniority),
    departments: fitted(o.departments, normalizeDepartment),
    companySizes: fitted(o.companySizes, normalizeCompanySize),
    industries: strings(o.industries).map((s) => s.toLowerCase()),
    countries: strings(o.countries),
    domains: strings(o.domains),
    technologies: strings(o.technologies).map((s) => s.toLowerCase()),
    keywords: typeof o.keywords === "string" && o.keywords.trim() ? o.keywords.trim().slice(0, 500) : undefined,
  };
  for (const k of FILTER_NAMES) {
    const v = f[k];
    if (v === undefined || (Array.isArray(v) && v.length === 0)) delete f[k];
    else if (Array.isArray(v)) (f as Record<string, unknown>)[k] = v.slice(0, 50);
  }
  return Object.keys(f).length ? f : undefined;
}

/** The filters for a sentence and who read it: the model, or the rules. */
export async function filtersFor(ctx: Ctx, query: string): Promise<{ filters: FinderFilters; source: "ai" | "rules" }> {
  const p = await aiProviderFor(ctx.db, ctx.workspaceId);
  if (p.complete) {
    await useCredit(ctx.db, ctx.workspaceId, ctx.clock.now());
    try {
      const filters = filtersFromModel(await p.complete(SYSTEM, query));
      if (filters) return { filters, source: "ai" };
    } catch (e) {
      ctx.log.warn("finder ai-search: the AI endpoint failed, using the rules", { error: (e as Error).message });
    }
  }
  return { filters: parseQuery(query), source: "rules" };
}

export async function aiSearch(ctx: Ctx, body: { query: string; limit: number }) {
  requireAccess(ctx, "write");
  const { filters, source } = await filtersFor(ctx, body.query);
  const { people, total } = await findPeople(ctx.db, ctx.workspaceId, { filters, page: 1, limit: body.limit });
  return { filters, people, total, source };
}
