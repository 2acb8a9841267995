import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countryWords } from "./countries";
import { parseQuery } from "./query-parser";
import { finderFilters } from "./schemas";

/** The rule-based AI-search parser: one sentence per row, the filters it must give (exactly). */
const CASES: [string, object][] = [
  // The sentence every install should get right without an AI endpoint.
  [
    "CTOs at fintech startups in Germany",
    { titles: ["cto"], industries: ["fintech"], companySizes: ["1-10", "11-50"], countries: ["Germany"] },
  ],
  [
    "CTO at a fintech startup in germany",
    { titles: ["cto"], industries: ["fintech"], companySizes: ["1-10", "11-50"], countries: ["Germany"] },
  ],
  ["German fintech CTOs", { titles: ["cto"], industries: ["fintech"], countries: ["Germany"] }],
  [
    "chief technology officers of FinTech start-ups in DE",
    { titles: ["cto"], industries: ["fintech"], companySizes: ["1-10", "11-50"], countries: ["Germany"] },
  ],
  [
    "VP of Sales at SaaS companies in the UK",
    { seniorities: ["vp"], departments: ["sales"], industries: ["saas"], countries: ["United Kingdom"] },
  ],
  ["VPs of Engineering in the United States", { seniorities: ["vp"], departments: ["engineering"], countries: ["United States"] }],
  [
    "SVP marketing, American enterprises",
    { seniorities: ["vp"], departments: ["marketing"], companySizes: ["1001-5000", "5001-10000", "10001+"], countries: ["United States"] },
  ],
  ["Head of Growth in the US", { seniorities: ["head"], departments: ["marketing"], countries: ["United States"] }],
  [
    "heads of HR at companies over 1,000 employees in France",
    { seniorities: ["head"], departments: ["human_resources"], companySizes: ["1001-5000", "5001-10000", "10001+"], countries: ["France"] },
  ],
  ["Directors of Finance in Spain", { seniorities: ["director"], departments: ["finance"], countries: ["Spain"] }],
  [
    "marketing directors in companies with 50-200 employees",
    { seniorities: ["director"], departments: ["marketing"], companySizes: ["51-200"] },
  ],
  [
    "engineering managers at companies of 50 to 200 people",
    { seniorities: ["manager"], departments: ["engineering"], companySizes: ["51-200"] },
  ],
  [
    "C-level executives at mid-size logistics companies",
    { seniorities: ["c_suite"], industries: ["logistics"], companySizes: ["51-200", "201-500", "501-1000"] },
  ],
  ["C-suite in Switzerland", { seniorities: ["c_suite"], countries: ["Switzerland"] }],
  [
    "founders of e-commerce brands on Shopify in Canada or Australia",
    { seniorities: ["founder"], industries: ["ecommerce"], countries: ["Canada", "Australia"], technologies: ["shopify"] },
  ],
  [
    "co-founders of Dutch healthtech startups",
    { titles: ["founder"], industries: ["healthcare"], companySizes: ["1-10", "11-50"], countries: ["Netherlands"] },
  ],
  ["business owners in Ireland", { seniorities: ["owner"], countries: ["Ireland"] }],
  ["CEOs and CFOs of British banks", { titles: ["ceo", "cfo"], industries: ["banking"], countries: ["United Kingdom"] }],
  [
    "Chief Revenue Officers at enterprise software companies",
    { titles: ["cro"], industries: ["software"], companySizes: ["1001-5000", "5001-10000", "10001+"] },
  ],
  ["chief sustainability officers", { titles: ["chief sustainability officer"] }],
  [
    "software engineers in the USA using Kubernetes",
    { titles: ["software engineer"], countries: ["United States"], technologies: ["kubernetes"] },
  ],
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
  [
    "IT directors at insurers in Italy",
    { seniorities: ["director"], departments: ["it"], industries: ["insurance"], countries: ["Italy"] },
  ],
  ["it managers in Poland", { seniorities: ["manager"], departments: ["it"], countries: ["Poland"] }],
  ["customer success leads at SMBs", { departments: ["support"], companySizes: ["1-10", "11-50"] }],
  [
    "legal counsel at Swedish SaaS scale-ups",
    { departments: ["legal"], industries: ["saas"], companySizes: ["51-200", "201-500"], countries: ["Sweden"] },
  ],
  [
    "HR directors at companies with 500 employees in the US",
    { seniorities: ["director"], departments: ["human_resources"], companySizes: ["201-500"], countries: ["United States"] },
  ],
  ["small and mid-size manufacturers", { industries: ["manufacturing"], companySizes: ["1-10", "11-50", "51-200", "201-500", "501-1000"] }],
  [
    "Head of Data, Dutch or Belgian companies, 1k-5k employees",
    { seniorities: ["head"], departments: ["data"], companySizes: ["1001-5000"], countries: ["Netherlands", "Belgium"] },
  ],
  ["recruiters at staffing firms between 11 and 50 employees", { titles: ["recruiter"], companySizes: ["11-50"] }],
  ["interns and junior developers in India", { seniorities: ["entry", "intern"], departments: ["engineering"], countries: ["India"] }],
  ["partners at consulting firms in Austria", { seniorities: ["partner"], industries: ["consulting"], countries: ["Austria"] }],
  [
    "operations people at real estate companies in the UAE",
    { departments: ["operations"], industries: ["real estate"], countries: ["United Arab Emirates"] },
  ],
  [
    "Brazilian and Mexican cybersecurity founders",
    { seniorities: ["founder"], industries: ["cybersecurity"], countries: ["Brazil", "Mexico"] },
  ],
  ["designers at gaming studios in Japan", { titles: ["designer"], industries: ["gaming"], countries: ["Japan"] }],
  // What must not be read as a country: lower-case codes and words, regions, US state abbreviations.
  ["people like us who sell to banks", { industries: ["banking"] }],
  ["sales leaders in Latin America", { departments: ["sales"] }],
  ["engineers in Chicago, IL and San Francisco, CA", { departments: ["engineering"] }],
  ["CTOS IN GERMANY", { titles: ["cto"], countries: ["Germany"] }],
  ["founders in New Mexico", { seniorities: ["founder"] }],
  ["sales people in British Columbia", { departments: ["sales"], countries: ["Canada"] }],
  ["something entirely unrelated", {}],
  ["", {}],
];

describe("parseQuery (AI search without a model)", () => {
  it.each(CASES)("%s", (query, filters) => {
    expect(parseQuery(query)).toEqual(filters);
  });
});

const WORDS = [
  ...countryWords().map((w) => (w.code ? w.word.toUpperCase() : w.word)),
  ...["in", "it", "no", "de", "us", "at", "be", "to", "IN", "IT", "NO", "the", "of", "and", ",", "CTOs", "VP", "sales", "HR", "startups"],
  ...[
    "50-200 employees",
    "over 1,000 employees",
    "10k+",
    "fintech",
    "e-commerce",
    "head of",
    "C-level",
    "New",
    "Mexico",
    "Latin",
    "America",
  ],
];
const sentence = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((ws) => ws.join(" "));

/** Whether the sentence names the country: one of its words, whole, in any case (a code in capitals). */
function named(query: string, country: string): boolean {
  const regions: Record<string, RegExp> = { Canada: /british columbia/i, Australia: /new south wales/i };
  if (regions[country]?.test(query)) return true;
  return countryWords()
    .filter((w) => w.name === country)
    .some((w) => {
      const word = (w.code ? w.word.toUpperCase() : w.word).replace(/[.]/g, "\\.");
      return new RegExp(`(?<![\\p{L}\\p{N}.])${word}(?![\\p{L}\\p{N}])`, w.code ? "u" : "iu").test(query);
    });
}

describe("parseQuery properties", () => {
  it("never throws, and always gives filters the search accepts", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 200 }), sentence), (q) => {
        const f = parseQuery(q);
        expect(finderFilters.safeParse(f).success).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("never gives a country the sentence does not name", () => {
    fc.assert(
      fc.property(sentence, (q) => {
        for (const c of parseQuery(q).countries ?? []) expect(named(q, c), `${c} from "${q}"`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("reads no country from a sentence written in lower case without a country's name", () => {
    const lowerWords = ["in", "it", "no", "de", "us", "at", "be", "gb", "sales", "ctos", "startups", "of", "people", "to"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...lowerWords), { maxLength: 12 }), (ws) => {
        expect(parseQuery(ws.join(" ")).countries).toBeUndefined();
      }),
    );
  });

  it("is deterministic: the same sentence gives the same filters", () => {
    fc.assert(
      fc.property(sentence, (q) => {
        expect(parseQuery(q)).toEqual(parseQuery(q));
      }),
    );
  });
});
