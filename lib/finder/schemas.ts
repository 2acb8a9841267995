import { z } from "zod";
import { COMPANY_SIZES, DEPARTMENTS, SENIORITIES } from "./vocabulary";

/** Request shapes of /finder/* (docs/finder.md). */

const values = (max = 50) => z.array(z.string().trim().min(1).max(200)).max(max, `at most ${max} values`).optional();

/** Search filters: AND across filters, OR within one (lib/finder/search.ts says how each matches). */
export const finderFilters = z
  .object({
    titles: values().describe("Each matches a title containing all its words (word prefixes, any case)"),
    seniorities: z.array(z.enum(SENIORITIES)).max(SENIORITIES.length).optional(),
    departments: z.array(z.enum(DEPARTMENTS)).max(DEPARTMENTS.length).optional(),
    industries: values().describe("Any case"),
    companySizes: z.array(z.enum(COMPANY_SIZES)).max(COMPANY_SIZES.length).optional(),
    countries: values().describe("Names, codes or aliases (UK, USA…)"),
    domains: values(200).describe("Company domains, any case"),
    technologies: values().describe("Any case"),
    keywords: z.string().trim().max(500).optional().describe("Words over name, title and company (full-text, word prefixes)"),
  })
  .strict();
export type FinderFilters = z.infer<typeof finderFilters>;
export const FILTER_NAMES = [
  "titles",
  "seniorities",
  "departments",
  "industries",
  "companySizes",
  "countries",
  "domains",
  "technologies",
  "keywords",
] as const;

export const MAX_LIMIT = 200;

export const searchBody = z.object({
  filters: finderFilters.default({}),
  page: z.number().int().min(1, "page must be 1 or more").default(1),
  limit: z.number().int().min(1).max(MAX_LIMIT, `limit must be at most ${MAX_LIMIT}`).default(50),
});
export type SearchBody = z.infer<typeof searchBody>;

export const countBody = z.object({ filters: finderFilters.default({}) });

/** The filters facets are counted for (keywords and titles are free text: no facet). */
export const FACETS = ["seniorities", "departments", "industries", "companySizes", "countries", "domains", "technologies"] as const;
export type FacetName = (typeof FACETS)[number];
export const facetsBody = z.object({
  filters: finderFilters.default({}),
  facets: z.array(z.enum(FACETS)).optional().describe("Which facets (default all)"),
  limit: z.number().int().min(1).max(100).default(20).describe("Values per facet, most frequent first"),
});

const text = z.string().trim().max(1000).optional().nullable();

/** One imported person: fields are optional, but a row needs a name or a LinkedIn URL. */
export const personInput = z.object({
  firstName: text,
  lastName: text,
  title: text,
  seniority: text,
  department: text,
  companyName: text,
  companyDomain: text,
  industry: text,
  companySize: z
    .union([z.string().max(100), z.number()])
    .optional()
    .nullable(),
  country: text,
  city: text,
  linkedinUrl: text,
  email: text,
  technologies: z
    .union([z.array(z.string().max(100)).max(100), z.string().max(5000)])
    .optional()
    .nullable(),
});
export type PersonInput = z.infer<typeof personInput>;

export const MAX_IMPORT = 10_000;
export const importBody = z
  .object({
    people: z
      .array(z.unknown())
      .max(MAX_IMPORT, `at most ${MAX_IMPORT.toLocaleString("en")} people per import`)
      .optional(),
    csv: z.string().max(20_000_000).optional(),
  })
  .strict()
  .refine((b) => (b.people ? 1 : 0) + (b.csv !== undefined ? 1 : 0) === 1, "send either people or csv");

export const aiSearchBody = z.object({
  query: z.string().trim().min(1, "query is empty").max(1000),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(50),
});

export const personIdsBody = z.object({
  personIds: z.array(z.string().max(100)).min(1, "send at least one person").max(1000, "at most 1,000 people per job"),
});
export const enrichBody = personIdsBody.extend({
  verify: z.boolean().default(true).describe("Verify candidates over SMTP (default true)"),
});

export const addToLeadsBody = z.object({
  campaignId: z.string().max(100).optional().describe("Also add the new leads to this campaign"),
  personIds: z.array(z.string().max(100)).max(1000).optional().describe("Only these people of the job (default all with an email)"),
  includeCatchAll: z.boolean().default(true).describe("Add CATCH_ALL addresses too (default true); INVALID and UNKNOWN never"),
});
