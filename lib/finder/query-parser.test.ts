import { describe, expect, it } from "vitest";
import { parseQuery } from "./query-parser";

/** The rule-based AI-search parser: one sentence per row, the filters it must give. */
const CASES: [string, object][] = [
  [
    "VP of Sales at SaaS companies in the UK",
    { seniorities: ["vp"], departments: ["sales"], industries: ["saas"], countries: ["United Kingdom"] },
  ],
  [
    "CTOs at fintech startups in Germany",
    { titles: ["cto"], industries: ["fintech"], companySizes: ["1-10", "11-50"], countries: ["Germany"] },
  ],
  [
    "marketing directors in companies with 50-200 employees",
    { seniorities: ["director"], departments: ["marketing"], companySizes: ["11-50", "51-200"] },
  ],
  [
    "software engineers in the USA using Kubernetes",
    { titles: ["software engineer"], countries: ["United States"], technologies: ["kubernetes"] },
  ],
  [
    "heads of HR at companies over 1,000 employees in France",
    { seniorities: ["head"], departments: ["human_resources"], companySizes: ["1001-5000", "5001-10000", "10001+"], countries: ["France"] },
  ],
  [
    "founders of e-commerce brands on Shopify in Canada or Australia",
    { seniorities: ["founder"], industries: ["ecommerce"], countries: ["Canada", "Australia"], technologies: ["shopify"] },
  ],
  ["people like us who sell to banks", { industries: ["banking"] }],
  [
    "account executives in the US under 50 employees",
    { titles: ["account executive"], countries: ["United States"], companySizes: ["1-10", "11-50"] },
  ],
  [
    "product managers at enterprise healthcare companies in the Netherlands",
    {
      titles: ["product manager"],
      industries: ["healthcare"],
      companySizes: ["1001-5000", "5001-10000", "10001+"],
      countries: ["Netherlands"],
    },
  ],
  [
    "senior data people at 10k+ employees companies in Great Britain",
    { seniorities: ["senior"], departments: ["data"], companySizes: ["10001+"], countries: ["United Kingdom"] },
  ],
  ["something entirely unrelated", {}],
];

describe("parseQuery (AI search without a model)", () => {
  it.each(CASES)("%s", (query, filters) => {
    expect(parseQuery(query)).toEqual(filters);
  });
});
