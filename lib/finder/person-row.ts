import { normalizeCountry } from "./countries";
import { normalizeIndustry } from "./industries";
import { personInput } from "./schemas";
import { normalizeCompanySize, normalizeDepartment, normalizeSeniority, SENIORITIES, DEPARTMENTS } from "./vocabulary";

/** One directory person as stored (finder_people's imported columns). */
export interface PersonRow {
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  seniority: string | null;
  department: string | null;
  companyName: string | null;
  companyDomain: string | null;
  industry: string | null;
  companySize: string | null;
  country: string | null;
  city: string | null;
  linkedinUrl: string | null;
  email: string | null;
  technologies: string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

const blank = (v: string | null | undefined) => (v == null || v.trim() === "" ? null : v.trim());

/** A company domain written as a domain, a URL or www.…: the bare host, lower-case. */
export function normalizeDomain(raw: string): string | undefined {
  const host = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/^www\./, "")
    .replace(/[/?#].*$/, "");
  return DOMAIN.test(host) ? host : undefined;
}

function technologiesOf(v: string[] | string | null | undefined): string[] {
  const list = typeof v === "string" ? v.split(/[;,|]/) : (v ?? []);
  return [...new Set(list.map((t) => t.trim().toLowerCase()).filter(Boolean))];
}

type Check = { row?: PersonRow; reasons: string[] };

/** The vocabulary fields, each normalised or a reason why not. */
function vocabulary(p: { seniority?: string | null; department?: string | null; companySize?: string | number | null }, reasons: string[]) {
  const seniority = blank(p.seniority);
  const department = blank(p.department);
  const sizeRaw = p.companySize == null ? null : blank(String(p.companySize));
  const s = seniority ? normalizeSeniority(seniority) : null;
  const d = department ? normalizeDepartment(department) : null;
  const size = sizeRaw ? normalizeCompanySize(sizeRaw) : null;
  if (s === undefined) reasons.push(`seniority "${seniority}" is not one of ${SENIORITIES.join(", ")}`);
  if (d === undefined) reasons.push(`department "${department}" is not one of ${DEPARTMENTS.join(", ")}`);
  if (size === undefined) reasons.push(`companySize "${sizeRaw}" is neither a head count nor a band like 51-200`);
  return { seniority: s ?? null, department: d ?? null, companySize: size ?? null };
}

/** Checks and normalises one imported record; a rejected one carries every reason at once. */
export function checkPerson(input: unknown): Check {
  const parsed = personInput.safeParse(input);
  if (!parsed.success) {
    return { reasons: parsed.error.issues.map((i) => `${i.path.join(".") || "row"}: ${i.message}`) };
  }
  const p = parsed.data;
  const reasons: string[] = [];
  const firstName = blank(p.firstName);
  const lastName = blank(p.lastName);
  const linkedinUrl = blank(p.linkedinUrl);
  if (!firstName && !lastName && !linkedinUrl) reasons.push("a person needs firstName, lastName or linkedinUrl");
  if (linkedinUrl && !/^https?:\/\/\S+$/i.test(linkedinUrl)) reasons.push("linkedinUrl must be an http(s) URL");
  const domainRaw = blank(p.companyDomain);
  const companyDomain = domainRaw ? normalizeDomain(domainRaw) : null;
  if (companyDomain === undefined) reasons.push(`companyDomain "${domainRaw}" is not a domain name`);
  const email = blank(p.email)?.toLowerCase() ?? null;
  if (email && !EMAIL.test(email)) reasons.push(`email "${email}" is not an email address`);
  const vocab = vocabulary(p, reasons);
  if (reasons.length) return { reasons };
  const country = blank(p.country);
  const industry = blank(p.industry);
  return {
    reasons,
    row: {
      firstName,
      lastName,
      title: blank(p.title),
      ...vocab,
      companyName: blank(p.companyName),
      companyDomain: companyDomain ?? (email ? (email.split("@")[1] ?? null) : null),
      industry: industry ? normalizeIndustry(industry) : null,
      country: country ? normalizeCountry(country) : null,
      city: blank(p.city),
      linkedinUrl,
      email,
      technologies: technologiesOf(p.technologies),
    },
  };
}
