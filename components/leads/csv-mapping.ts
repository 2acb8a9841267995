import type { BodyOf } from "@/lib/client";

/** One lead of POST /leads, as the contract takes it. */
export type LeadInput = BodyOf<"/leads", "post">["leads"][number];

/** The lead fields a CSV column can fill (custom fields aside). */
export const LEAD_FIELDS = [
  { key: "email", label: "Email" },
  { key: "firstName", label: "First name" },
  { key: "lastName", label: "Last name" },
  { key: "companyName", label: "Company name" },
  { key: "companyDomain", label: "Company domain" },
  { key: "phoneNumber", label: "Phone number" },
  { key: "jobTitle", label: "Job title" },
  { key: "timezone", label: "Timezone" },
] as const;
export type LeadFieldKey = (typeof LEAD_FIELDS)[number]["key"];

/** Where one CSV column goes. */
export type ColumnTarget = { kind: "field"; field: LeadFieldKey } | { kind: "custom"; name: string } | { kind: "ignore" };

// Header spellings seen in exports from CRMs, Apollo, LinkedIn tools and spreadsheets, compared after
// lower-casing and dropping everything but letters and digits.
const ALIASES: Record<LeadFieldKey, string[]> = {
  email: ["email", "emailaddress", "mail", "workemail", "businessemail", "emails", "contactemail", "email1", "primaryemail"],
  firstName: ["firstname", "first", "givenname", "fname", "forename"],
  lastName: ["lastname", "last", "surname", "familyname", "lname"],
  companyName: ["company", "companyname", "organization", "organisation", "organizationname", "account", "accountname", "employer"],
  companyDomain: ["companydomain", "domain", "website", "companywebsite", "websiteurl", "url", "companyurl", "web"],
  phoneNumber: ["phone", "phonenumber", "mobile", "mobilephone", "telephone", "tel", "workphone", "directphone", "cell"],
  jobTitle: ["jobtitle", "title", "position", "role", "designation"],
  timezone: ["timezone", "tz", "timezonename", "iana"],
};

function normalise(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** A custom field name the API accepts: no braces, not starting with a space (lib/leads/schemas). */
export function customFieldName(header: string): string {
  return header.replace(/[{}]/g, "").trim().slice(0, 100);
}

/**
 * A first guess for every column: a known header fills its lead field (each field once, the first
 * column wins), any other named column becomes a custom field of the same name.
 */
export function guessMapping(headers: string[]): ColumnTarget[] {
  const taken = new Set<LeadFieldKey>();
  return headers.map((h) => {
    const n = normalise(h);
    const field = (Object.keys(ALIASES) as LeadFieldKey[]).find((k) => ALIASES[k].includes(n));
    if (field && !taken.has(field)) {
      taken.add(field);
      return { kind: "field", field };
    }
    const name = customFieldName(h);
    return name ? { kind: "custom", name } : { kind: "ignore" };
  });
}

/** What is wrong with a mapping, or nothing when it can be imported. */
export function mappingProblems(mapping: ColumnTarget[]): string[] {
  const problems: string[] = [];
  const fields = mapping.flatMap((m) => (m.kind === "field" ? [m.field] : []));
  if (!fields.includes("email")) problems.push("Map one column to Email: it is how leads are matched and merged.");
  for (const f of LEAD_FIELDS) {
    if (fields.filter((x) => x === f.key).length > 1) problems.push(`${f.label} is mapped from more than one column.`);
  }
  const customs = mapping.flatMap((m) => (m.kind === "custom" ? [m.name.trim()] : []));
  if (customs.some((c) => !c)) problems.push("Every custom field needs a name.");
  const dup = customs.find((c, i) => customs.indexOf(c) !== i);
  if (dup) problems.push(`The custom field "${dup}" is mapped from more than one column.`);
  return problems;
}

/**
 * One CSV row as a lead. Empty cells are left out rather than sent as "": on a merge an empty string
 * would clear what the lead already has (the merge rule of POST /leads), and a blank cell means "unknown" here.
 */
export function rowToLead(row: Record<string, string>, headers: string[], mapping: ColumnTarget[]): LeadInput {
  const lead: LeadInput = { email: "" };
  const custom: Record<string, string> = {};
  headers.forEach((h, i) => {
    const target = mapping[i];
    const value = (row[h] ?? "").trim();
    if (!value || target.kind === "ignore") return;
    if (target.kind === "custom") custom[target.name.trim()] = value;
    else lead[target.field] = value;
  });
  if (Object.keys(custom).length) lead.customFields = custom;
  return lead;
}
