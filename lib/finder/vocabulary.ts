/**
 * The finder's fixed vocabulary (GET /finder/meta): the values the seniority, department and company
 * size filters allow, and how imported values and AI-search words map onto them. Industries,
 * technologies and countries are open lists (their values come from the imported directory: facets
 * show them); they are stored normalised so every filter compares equal values: technologies
 * lower-case, industries lower-case with the known ones under one spelling (industries.ts),
 * countries by their English name ("UK" → "United Kingdom", countries.ts).
 */

export const SENIORITIES = [
  "owner",
  "founder",
  "c_suite",
  "partner",
  "vp",
  "head",
  "director",
  "manager",
  "senior",
  "entry",
  "intern",
] as const;
export const DEPARTMENTS = [
  "executive",
  "engineering",
  "sales",
  "marketing",
  "finance",
  "human_resources",
  "operations",
  "product",
  "design",
  "support",
  "legal",
  "it",
  "data",
  "education",
  "medical",
] as const;
export const COMPANY_SIZES = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"] as const;

export type Seniority = (typeof SENIORITIES)[number];
export type Department = (typeof DEPARTMENTS)[number];
export type CompanySize = (typeof COMPANY_SIZES)[number];

/** Lower bound of each size band, for mapping a head count or a range onto the bands. */
const SIZE_FLOORS = [1, 11, 51, 201, 501, 1001, 5001, 10001];

/** The band a head count falls in. */
export function sizeBandOf(count: number): CompanySize {
  let i = 0;
  while (i + 1 < SIZE_FLOORS.length && count >= SIZE_FLOORS[i + 1]) i++;
  return COMPANY_SIZES[i];
}

/** Every band a range of head counts overlaps ("50-200 employees" → 11-50, 51-200). */
export function sizeBandsBetween(min: number, max: number): CompanySize[] {
  return COMPANY_SIZES.filter((_, i) => {
    const lo = SIZE_FLOORS[i];
    const hi = i + 1 < SIZE_FLOORS.length ? SIZE_FLOORS[i + 1] - 1 : Number.POSITIVE_INFINITY;
    return hi >= min && lo <= max;
  });
}

/** A company size as imported: a band, a band written loosely ("51 - 200", "10,001+"), or a head count. */
export function normalizeCompanySize(raw: string): CompanySize | undefined {
  const s = raw.replace(/[,\s]|employees?/gi, "");
  if ((COMPANY_SIZES as readonly string[]).includes(s)) return s as CompanySize;
  if (/^\d+$/.test(s)) return sizeBandOf(Number(s));
  const range = /^(\d+)-(\d+)$/.exec(s);
  if (range) return sizeBandOf(Number(range[1]));
  const plus = /^(\d+)\+$/.exec(s);
  return plus ? sizeBandOf(Number(plus[1])) : undefined;
}

const SENIORITY_ALIASES: Record<string, Seniority> = {
  "c-suite": "c_suite",
  "c suite": "c_suite",
  csuite: "c_suite",
  cxo: "c_suite",
  executive: "c_suite",
  "vice president": "vp",
  "head of": "head",
  junior: "entry",
  "entry level": "entry",
  "entry-level": "entry",
  mid: "senior",
  lead: "senior",
};

const DEPARTMENT_ALIASES: Record<string, Department> = {
  hr: "human_resources",
  "human resources": "human_resources",
  people: "human_resources",
  recruiting: "human_resources",
  "c-suite": "executive",
  management: "executive",
  ops: "operations",
  "customer success": "support",
  "customer support": "support",
  "information technology": "it",
  "data science": "data",
  analytics: "data",
  r_and_d: "engineering",
  "r&d": "engineering",
  development: "engineering",
};

function fromList<T extends string>(list: readonly T[], aliases: Record<string, T>, raw: string): T | undefined {
  const s = raw.trim().toLowerCase();
  const snake = s.replace(/[\s-]+/g, "_");
  if ((list as readonly string[]).includes(snake)) return snake as T;
  return aliases[s];
}

export const normalizeSeniority = (raw: string) => fromList(SENIORITIES, SENIORITY_ALIASES, raw);
export const normalizeDepartment = (raw: string) => fromList(DEPARTMENTS, DEPARTMENT_ALIASES, raw);
