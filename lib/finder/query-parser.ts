import { countryWords } from "./countries";
import { INDUSTRIES } from "./industries";
import type { FinderFilters } from "./schemas";
import { COMPANY_SIZES, type CompanySize, type Department, type Seniority, sizeBandsBetween } from "./vocabulary";

/**
 * AI search without a model (POST /finder/ai-search when no AI endpoint is configured): a sentence →
 * filters by tables of words. Deterministic, and it never throws. Each table is tried in order and the
 * words it uses are blanked out of the sentence, so "VP of Sales" becomes seniority vp + department
 * sales rather than also a title, and "software engineers" is a title rather than the software
 * industry. Blanking keeps every character's position, so a match can be checked against the sentence
 * as typed (a country code counts only in capitals).
 *
 * A job title such as CTO stays a title alone: filters are ANDed, so adding the seniority and
 * department it implies (c_suite, engineering) would only drop the CTOs whose row has another
 * seniority ("founder") or none, and add nobody.
 */

type Table<T> = [RegExp, T | ((m: RegExpExecArray) => T)][];

/** Job titles kept as titles (the title filter matches every word's prefix, any case). */
const TITLES: Table<string> = [
  [/\bceos?\b|\bchief executives?(?: officers?)?\b/, "ceo"],
  [/\bctos?\b|\bchief technology officers?\b|\bchief technical officers?\b/, "cto"],
  [/\bcfos?\b|\bchief financial officers?\b|\bchief finance officers?\b/, "cfo"],
  [/\bcmos?\b|\bchief marketing officers?\b/, "cmo"],
  [/\bcoos?\b|\bchief operating officers?\b|\bchief operations officers?\b/, "coo"],
  [/\bcisos?\b|\bchief information security officers?\b/, "ciso"],
  [/\bcios?\b|\bchief information officers?\b/, "cio"],
  [/\bcros?\b|\bchief revenue officers?\b/, "cro"],
  [/\bcpos?\b|\bchief product officers?\b/, "cpo"],
  [/\bchros?\b|\bchief (?:people|human resources) officers?\b/, "chro"],
  [/\bcdos?\b|\bchief data officers?\b/, "cdo"],
  [/\bchief ([a-z]+) officers?\b/, (m) => `chief ${m[1]} officer`],
  [/\bco-?founders?\b/, "founder"],
  [/\bmanaging directors?\b/, "managing director"],
  [/\bgeneral counsels?\b/, "general counsel"],
  [/\bsoftware engineers?\b|\bsoftware developers?\b/, "software engineer"],
  [/\bdevops engineers?\b/, "devops"],
  [/\baccount executives?\b|\baes\b/, "account executive"],
  [/\baccount managers?\b/, "account manager"],
  [/\bsdrs?\b|\bsales development reps?(?:resentatives?)?\b/, "sales development"],
  [/\bbdrs?\b|\bbusiness development reps?(?:resentatives?)?\b/, "business development"],
  [/\bproduct managers?\b|\bpms\b/, "product manager"],
  [/\bproduct owners?\b/, "product owner"],
  [/\bdata scientists?\b/, "data scientist"],
  [/\brecruiters?\b|\btalent acquisition\b/, "recruiter"],
  [/\bdesigners?\b/, "designer"],
];

const SENIORITY: Table<Seniority> = [
  [/\b[se]?vps?\b|\b(?:senior |executive )?vice presidents?\b/, "vp"],
  [/\bheads?\b/, "head"],
  [/\bdirectors?\b/, "director"],
  [/\bmanagers?\b/, "manager"],
  [/\bc-?suite\b|\bc-?level\b|\bcxos?\b|\bexecutives?\b|\bexecs\b|\bchiefs?\b/, "c_suite"],
  [/\bfounders?\b/, "founder"],
  [/\bowners?\b/, "owner"],
  [/\bpartners?\b/, "partner"],
  [/\bsenior\b|\bsr\b/, "senior"],
  [/\bjunior\b|\bjr\b|\bentry[- ]level\b|\bgraduates?\b/, "entry"],
  [/\binterns?\b|\binternships?\b/, "intern"],
];

const DEPARTMENT: Table<Department> = [
  [/\bsales\b|\bsalespeople\b|\bsellers\b/, "sales"],
  [/\bmarketing\b|\bmarketers?\b|\bgrowth\b|\bdemand gen(?:eration)?\b/, "marketing"],
  [/\bengineering\b|\bengineers?\b|\bdevelopers?\b|\bdevs\b|\br&d\b|\br and d\b/, "engineering"],
  [/\bfinance\b|\bfinancial\b|\baccounting\b|\baccountants?\b|\bcontrollers?\b/, "finance"],
  [/\bhr\b|\bhuman resources\b|\bpeople ops\b|\bpeople operations\b|\brecruiting\b|\btalent\b/, "human_resources"],
  [/\boperations\b|\bops\b/, "operations"],
  [/\bproduct\b/, "product"],
  [/\bdesign\b|\bux\b/, "design"],
  [/\bcustomer success\b|\bcustomer support\b|\bcustomer service\b|\bsupport\b/, "support"],
  [/\blegal\b|\bcounsel\b|\blawyers?\b/, "legal"],
  [/\binformation technology\b/, "it"],
  [/\bdata\b|\banalytics\b|\bbusiness intelligence\b/, "data"],
];

const INDUSTRY: Table<string> = INDUSTRIES.map((i) => [i.words, i.value]);

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

/** The sentence being read: lower-case, with the words already used blanked out (same length as typed). */
interface Sentence {
  original: string;
  text: string;
}

/** Blanks the span of a match, keeping every other character where it is. */
function blank(s: Sentence, index: number, length: number) {
  s.text = s.text.slice(0, index) + " ".repeat(length) + s.text.slice(index + length);
}

/** Every match of `re` in what is left of the sentence. */
function findAll(s: Sentence, re: RegExp): RegExpExecArray[] {
  const g = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
  const found: RegExpExecArray[] = [];
  for (let m = g.exec(s.text); m; m = g.exec(s.text)) {
    found.push(m);
    if (m[0].length === 0) g.lastIndex++;
  }
  return found;
}

/** Every match of `re`, blanked as it is taken. */
function takeAll(s: Sentence, re: RegExp): RegExpExecArray[] {
  const found = findAll(s, re);
  for (const m of found) blank(s, m.index, m[0].length);
  return found;
}

function pick<T>(s: Sentence, table: Table<T>): T[] {
  const out: T[] = [];
  for (const [re, value] of table) {
    for (const m of takeAll(s, re)) {
      const v = typeof value === "function" ? (value as (m: RegExpExecArray) => T)(m) : value;
      if (!out.includes(v)) out.push(v);
    }
  }
  return out;
}

// ————— company sizes —————

/** A number as written: "10,000", "5k", "1.5k". */
const num = (s: string) => (s.toLowerCase().endsWith("k") ? Number.parseFloat(s) * 1000 : Number(s.replace(/,/g, "")));
const N = String.raw`(\d[\d,]*(?:\.\d+)?k?)`;
const PEOPLE = String.raw`\s*\+?\s*(?:employees|people|staff|headcount|persons?|ftes?|workers)\b`;
/** Band ceilings: "50-200 employees" means the 51-200 band, not also 11-50 because of the one person at 50. */
const CEILINGS = new Set([10, 50, 200, 500, 1000, 5000, 10000]);
const from = (n: number) => (CEILINGS.has(n) ? n + 1 : n);

const SIZE_WORDS: [RegExp, CompanySize[]][] = [
  [/\bstart-?ups?\b|\bearly[- ]stage\b|\bsmall\b|\bsmbs?\b|\bsmes?\b|\bsmall (?:and|&) medium(?:-sized)? businesses\b/, ["1-10", "11-50"]],
  [/\bscale-?ups?\b|\bgrowth[- ]stage\b/, ["51-200", "201-500"]],
  [/\bmid-?(?:size|sized|market)\b|\bmedium(?:-sized)?\b/, ["51-200", "201-500", "501-1000"]],
  [
    /\benterprises?\b|\blarge\b|\bbig (?:companies|firms|corporations|businesses)\b|\bcorporations?\b|\bcorporates\b|\bfortune (?:500|1000)\b/,
    COMPANY_SIZES.slice(5),
  ],
];

/** Company sizes: ranges, "over/under N employees", a head count, and words for size; every mention counts. */
function sizes(s: Sentence): CompanySize[] {
  const found = new Set<CompanySize>();
  const add = (bands: readonly CompanySize[]) => {
    for (const b of bands) found.add(b);
  };
  const range = new RegExp(String.raw`(?:between\s+)?${N}\s*(?:-|–|to|and)\s*${N}${PEOPLE}`);
  for (const m of takeAll(s, range)) add(sizeBandsBetween(from(num(m[1])), num(m[2])));
  // "N+" is read as "more than N" too: "10k+" means the 10001+ band, not also 5001-10000.
  const over = new RegExp(String.raw`(?:over|more than|above|at least|upwards of)\s+${N}${PEOPLE}|${N}\s*\+${PEOPLE}`);
  for (const m of takeAll(s, over)) {
    const n = num(m[1] ?? m[2]);
    add(sizeBandsBetween(/at least/.test(m[0]) ? from(n) : n + 1, Number.POSITIVE_INFINITY));
  }
  const under = new RegExp(String.raw`(?:under|less than|fewer than|below|up to|at most)\s+${N}${PEOPLE}`);
  for (const m of takeAll(s, under)) add(sizeBandsBetween(1, num(m[1]) - (/up to|at most/.test(m[0]) ? 0 : 1)));
  for (const m of takeAll(s, new RegExp(String.raw`\b${N}${PEOPLE}`))) add(sizeBandsBetween(num(m[1]), num(m[1])));
  for (const [re, bands] of SIZE_WORDS) if (takeAll(s, re).length) add(bands);
  return COMPANY_SIZES.filter((b) => found.has(b));
}

// ————— countries —————

/** Regions that contain a country's word but are not that country ("New Mexico", "Latin America"). */
const REGIONS: [RegExp, string | null][] = [
  [/\bbritish columbia\b/, "Canada"],
  [/\bnew south wales\b/, "Australia"],
  [/\b(?:latin|south|central|north) americ(?:a|an|ans)\b|\bnew mexico\b|\bnew england\b|\bnew jersey\b/, null],
];

/**
 * Two-letter codes that are English words or US state abbreviations in capitals as well ("IN", "AT",
 * "CA" for California, "IL" for Illinois, "AR" of AR/VR): never read as a country.
 */
const AMBIGUOUS_CODES = new Set(["it", "id", "ar", "in", "no", "at", "be", "co", "sa", "ca", "il"]);

const escapeRegExp = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const COUNTRY_WORDS = countryWords()
  .filter((w) => !(w.code && AMBIGUOUS_CODES.has(w.word)))
  .map((w) => ({ ...w, re: new RegExp(String.raw`(?<![\p{L}\p{N}.])${escapeRegExp(w.word)}(?![\p{L}\p{N}])`, "gu") }));

/** Countries by name, other name, demonym or capital-letter code, in the order the sentence names them. */
function countries(s: Sentence): string[] {
  const first = new Map<string, number>();
  const note = (at: number, name: string) => first.set(name, Math.min(at, first.get(name) ?? at));
  for (const [re, name] of REGIONS) for (const m of takeAll(s, re)) if (name) note(m.index, name);
  // A code counts in capitals only, and only in a sentence that is not all capitals ("IN" there is a word).
  for (const w of COUNTRY_WORDS) {
    const matches = findAll(s, w.re).filter((m) => !w.code || isCode(s, m, w.word.toUpperCase()));
    for (const m of matches) {
      blank(s, m.index, m[0].length);
      note(m.index, w.name);
    }
  }
  return [...first.entries()].sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

// ————— the sentence —————

const IT_DEPARTMENT = /\bit(?= +(?:department|teams?|managers?|directors?|leaders?|admins?|administrators?|security|ops|support|heads?)\b)/;

/** Whether a match is a two-letter code written in capitals, in a sentence that is not all capitals. */
function isCode(s: Sentence, m: RegExpExecArray, code: string): boolean {
  return /\p{Ll}/u.test(s.original) && s.original.slice(m.index, m.index + code.length) === code;
}

/** Lower-case, character by character, so the text keeps the length (and positions) of the sentence as typed. */
function lowerKeepingLength(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const l = ch.toLowerCase();
    out += l.length === 1 ? l : ch;
  }
  return out;
}

/** A sentence → filters; an empty object when nothing is recognised. */
export function parseQuery(query: string): FinderFilters {
  const original = ` ${query} `;
  const s: Sentence = { original, text: lowerKeepingLength(original) };
  const f: FinderFilters = {};
  const companySizes = sizes(s);
  const countryList = countries(s);
  const titles = pick(s, TITLES);
  const industries = pick(s, INDUSTRY);
  // "IT" is the department in capitals, or before a word that says so ("it managers"); else "it" is a word.
  const it = takeAll(s, IT_DEPARTMENT).length > 0;
  const upperIt = findAll(s, /\bit\b/).filter((m) => isCode(s, m, "IT"));
  for (const m of upperIt) blank(s, m.index, 2);
  const seniorities = pick(s, SENIORITY);
  const departments = pick(s, DEPARTMENT);
  if ((it || upperIt.length) && !departments.includes("it")) departments.push("it");
  const technologies = TECHNOLOGIES.filter((t) => new RegExp(String.raw`\b${t}\b`).test(s.text));
  if (titles.length) f.titles = titles;
  if (seniorities.length) f.seniorities = seniorities;
  if (departments.length) f.departments = departments;
  if (industries.length) f.industries = industries;
  if (companySizes.length) f.companySizes = companySizes;
  if (countryList.length) f.countries = countryList;
  if (technologies.length) f.technologies = technologies;
  return f;
}
