import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { finderPeople as p } from "../../db/schema";
import { normalizeDomain } from "./person-row";
import type { FinderFilters } from "./schemas";
import { normalizeCountry } from "./countries";
import { normalizeIndustry } from "./industries";

/**
 * Filters → one WHERE clause over finder_people, each filter served by its index (db/schema/finder.ts):
 * AND across filters, OR within one. How a value matches:
 * - seniorities, departments, companySizes: equal to a value of the fixed vocabulary;
 * - industries, technologies, domains: equal, any case (they are stored lower-case; a domain may be
 *   written as a URL; a known industry by any of its spellings, "e-commerce" → ecommerce); countries:
 *   by name, code or alias ("UK" → "United Kingdom");
 * - titles: full-text on the title — every word of the value starts a word of the title, any case
 *   ("vp sales" matches "VP of Sales", "engineer" matches "Software Engineering Manager");
 * - keywords: the same over first and last name, title and company name.
 */

/** A text as a prefix tsquery: every word, AND-ed, each matching word starts (`word:*`). Empty when no word. */
export function prefixQuery(text: string): string {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => `${w}:*`).join(" & ");
}

/** Several texts, OR-ed: `(a:* & b:*) | (c:*)`. */
function anyPrefixQuery(texts: string[]): string {
  return texts
    .map(prefixQuery)
    .filter(Boolean)
    .map((q) => `(${q})`)
    .join(" | ");
}

const lower = (vs: string[]) => [...new Set(vs.map((v) => v.trim().toLowerCase()))];
// Values are sent as a literal list (`in ($1, $2)`, `array[$1, $2]`), not one jsonb parameter: the lists are
// short, and the planner needs the values themselves to estimate how many rows match (bench:finder).
const textArray = (vs: string[]) =>
  sql`array[${sql.join(
    vs.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

type Part = keyof FinderFilters;

/** Each filter's condition (undefined when the filter is absent or empty). */
function conditions(f: FinderFilters): Partial<Record<Part, SQL>> {
  const c: Partial<Record<Part, SQL>> = {};
  if (f.seniorities?.length) c.seniorities = inArray(p.seniority, f.seniorities);
  if (f.departments?.length) c.departments = inArray(p.department, f.departments);
  if (f.companySizes?.length) c.companySizes = inArray(p.companySize, f.companySizes);
  // A known industry under its one spelling, and as written (rows imported before it had one).
  if (f.industries?.length)
    c.industries = inArray(p.industry, [...new Set([...f.industries.map(normalizeIndustry), ...lower(f.industries)])]);
  if (f.countries?.length) c.countries = inArray(p.country, [...new Set(f.countries.map(normalizeCountry))]);
  if (f.domains?.length) {
    const domains = f.domains.map((d) => normalizeDomain(d) ?? d.trim().toLowerCase());
    c.domains = inArray(p.companyDomain, [...new Set(domains)]);
  }
  if (f.technologies?.length) c.technologies = sql`${p.technologies} && ${textArray(lower(f.technologies))}`;
  const titles = f.titles?.length ? anyPrefixQuery(f.titles) : "";
  // A title of no words at all ("--") matches nothing rather than everything.
  if (f.titles?.length) c.titles = titles ? sql`${p.titleTsv} @@ to_tsquery('simple', ${titles})` : sql`false`;
  const keywords = f.keywords ? prefixQuery(f.keywords) : "";
  if (keywords) c.keywords = sql`${p.searchTsv} @@ to_tsquery('simple', ${keywords})`;
  return c;
}

/** The workspace's people matching `filters`, leaving out the filter `except` (a facet counts without its own filter). */
export function whereOf(workspaceId: string, filters: FinderFilters, except?: Part): SQL {
  const parts = Object.entries(conditions(filters))
    .filter(([k]) => k !== except)
    .map(([, v]) => v as SQL);
  return and(eq(p.workspaceId, workspaceId), ...parts) as SQL;
}
