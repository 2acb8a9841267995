import type { FinderFilters } from "./schemas";
import { COMPANY_SIZES, type CompanySize, countryWords, type Department, type Seniority, sizeBandsBetween } from "./vocabulary";

/**
 * AI search without a model (POST /finder/ai-search when no AI endpoint is configured): a sentence →
 * filters by tables of words. Each table is tried in order and the words it uses are taken out of the
 * sentence, so "VP of Sales" becomes seniority vp + department sales rather than also a title, and
 * "software engineers" is a title rather than the software industry.
 */

type Table<T> = [RegExp, T][];

/** Job titles kept as titles (the title filter matches every word's prefix, any case). */
const TITLES: Table<string> = [
  [/\bceos?\b|\bchief executive officers?\b/, "ceo"],
  [/\bctos?\b|\bchief technology officers?\b/, "cto"],
  [/\bcfos?\b|\bchief financial officers?\b/, "cfo"],
  [/\bcmos?\b|\bchief marketing officers?\b/, "cmo"],
  [/\bcoos?\b|\bchief operating officers?\b/, "coo"],
  [/\bcios?\b/, "cio"],
  [/\bco-?founders?\b/, "founder"],
  [/\bsoftware engineers?\b|\bsoftware developers?\b/, "software engineer"],
  [/\baccount executives?\b|\baes\b/, "account executive"],
  [/\bsdrs?\b|\bsales development reps?(resentatives?)?\b/, "sales development"],
  [/\bbdrs?\b|\bbusiness development reps?(resentatives?)?\b/, "business development"],
  [/\bproduct managers?\b/, "product manager"],
  [/\bdata scientists?\b/, "data scientist"],
  [/\brecruiters?\b/, "recruiter"],
  [/\bdesigners?\b/, "designer"],
];

const SENIORITY: Table<Seniority> = [
  [/\bvps?\b|\bvice presidents?\b/, "vp"],
  [/\bheads?\b/, "head"],
  [/\bdirectors?\b/, "director"],
  [/\bmanagers?\b/, "manager"],
  [/\bc-?suite\b|\bc-?level\b|\bexecutives?\b|\bchiefs?\b/, "c_suite"],
  [/\bfounders?\b/, "founder"],
  [/\bowners?\b/, "owner"],
  [/\bpartners?\b/, "partner"],
  [/\bsenior\b/, "senior"],
  [/\bjunior\b|\bentry[- ]level\b/, "entry"],
  [/\binterns?\b/, "intern"],
];

const DEPARTMENT: Table<Department> = [
  [/\bsales\b/, "sales"],
  [/\bmarketing\b|\bgrowth\b/, "marketing"],
  [/\bengineering\b|\bengineers?\b|\bdevelopers?\b/, "engineering"],
  [/\bfinance\b|\baccounting\b/, "finance"],
  [/\bhr\b|\bhuman resources\b|\bpeople ops\b|\brecruiting\b|\btalent\b/, "human_resources"],
  [/\boperations\b|\bops\b/, "operations"],
  [/\bproduct\b/, "product"],
  [/\bdesign\b/, "design"],
  [/\bcustomer success\b|\bsupport\b/, "support"],
  [/\blegal\b|\bcounsel\b/, "legal"],
  [/\bdata\b|\banalytics\b/, "data"],
];

const INDUSTRY: Table<string> = [
  [/\bfintech\b/, "fintech"],
  [/\bsaas\b/, "saas"],
  [/\bsoftware\b/, "software"],
  [/\bhealth ?care\b|\bhealth\b/, "healthcare"],
  [/\be-?commerce\b/, "ecommerce"],
  [/\bedtech\b|\beducation\b/, "education"],
  [/\binsurance\b|\binsurtech\b/, "insurance"],
  [/\bbanking\b|\bbanks?\b/, "banking"],
  [/\bretail\b/, "retail"],
  [/\bmanufacturing\b/, "manufacturing"],
  [/\blogistics\b/, "logistics"],
  [/\breal estate\b|\bproptech\b/, "real estate"],
  [/\bcyber ?security\b|\bsecurity\b/, "cybersecurity"],
  [/\bbiotech\b/, "biotech"],
  [/\bconsulting\b/, "consulting"],
  [/\bmedia\b/, "media"],
  [/\bgaming\b/, "gaming"],
  [/\bautomotive\b/, "automotive"],
  [/\benergy\b/, "energy"],
  [/\btelecom(munications)?\b/, "telecommunications"],
  [/\bmarketing agenc(y|ies)\b|\bagenc(y|ies)\b/, "marketing & advertising"],
];

const TECHNOLOGIES = [
  "salesforce",
  "hubspot",
  "shopify",
  "aws",
  "azure",
  "gcp",
  "kubernetes",
  "react",
  "stripe",
  "zendesk",
  "intercom",
  "wordpress",
  "magento",
  "snowflake",
  "segment",
  "marketo",
  "pipedrive",
  "slack",
  "jira",
  "docker",
  "postgres",
  "mongodb",
];

/** Words of a number with thousands separators or a k suffix: "10,000", "5k". */
const num = (s: string) => (s.toLowerCase().endsWith("k") ? Number.parseFloat(s) * 1000 : Number(s.replace(/,/g, "")));
const N = String.raw`(\d[\d,]*k?)`;
const PEOPLE = String.raw`\s*\+?\s*(?:employees|people|staff|headcount|person)`;

/** Company sizes: ranges, "over/under N employees", and a few words for size. */
function sizes(s: { text: string }): CompanySize[] | undefined {
  const take = (re: RegExp) => {
    const m = re.exec(s.text);
    if (m) s.text = s.text.replace(m[0], " ");
    return m;
  };
  const range = take(new RegExp(String.raw`${N}\s*(?:-|–|to)\s*${N}${PEOPLE}`));
  if (range) return sizeBandsBetween(num(range[1]), num(range[2]));
  const over = take(new RegExp(String.raw`(?:over|more than|above|at least)\s+${N}${PEOPLE}|${N}\+${PEOPLE}`));
  // "N+" is read as "more than N" too: "10k+" means the 10001+ band, not also 5001-10000.
  if (over) return sizeBandsBetween(num(over[1] ?? over[2]) + 1, Number.POSITIVE_INFINITY);
  const under = take(new RegExp(String.raw`(?:under|less than|fewer than|below|up to)\s+${N}${PEOPLE}`));
  if (under) return sizeBandsBetween(1, num(under[1]) - (/up to/.test(under[0]) ? 0 : 1));
  if (take(/\bstartups?\b|\bsmall (?:companies|businesses)\b|\bsmb\b/)) return ["1-10", "11-50"];
  if (take(/\bmid-?(?:size|sized|market)\b/)) return ["51-200", "201-500", "501-1000"];
  if (take(/\benterprises?\b|\blarge companies\b/)) return COMPANY_SIZES.slice(5);
  return undefined;
}

function pick<T>(s: { text: string }, table: Table<T>): T[] {
  const out: T[] = [];
  for (const [re, value] of table) {
    const g = new RegExp(re.source, "g");
    if (g.test(s.text)) {
      s.text = s.text.replace(g, " ");
      if (!out.includes(value)) out.push(value);
    }
  }
  return out;
}

/** Countries by name or alias; "US" only in capitals (else it is the word "us"). */
function countries(original: string, s: { text: string }): string[] {
  const out: [number, string][] = [];
  const words = countryWords().sort((a, b) => b[0].length - a[0].length);
  for (const [word, name] of words) {
    const re = new RegExp(String.raw`(?<![\p{L}.])${word.replace(/[.]/g, "\\.")}(?![\p{L}])`, "gu");
    if (!re.test(s.text)) continue;
    if (word === "us" && !/\bUS\b/.test(original)) continue;
    const at = s.text.search(re);
    s.text = s.text.replace(re, (m) => " ".repeat(m.length));
    if (!out.some(([, n]) => n === name)) out.push([at, name]);
  }
  // In the order the sentence names them.
  return out.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
}

/** A sentence → filters; an empty object when nothing is recognised. */
export function parseQuery(query: string): FinderFilters {
  const s = { text: ` ${query.toLowerCase()} ` };
  const f: FinderFilters = {};
  const companySizes = sizes(s);
  const countryList = countries(query, s);
  const titles = pick(s, TITLES);
  const industries = pick(s, INDUSTRY);
  const seniorities = pick(s, SENIORITY);
  const departments = pick(s, DEPARTMENT);
  const technologies = TECHNOLOGIES.filter((t) => new RegExp(String.raw`\b${t}\b`).test(s.text));
  if (titles.length) f.titles = titles;
  if (seniorities.length) f.seniorities = seniorities;
  if (departments.length) f.departments = departments;
  if (industries.length) f.industries = industries;
  if (companySizes?.length) f.companySizes = companySizes;
  if (countryList.length) f.countries = countryList;
  if (technologies.length) f.technologies = technologies;
  return f;
}
