import {
  duplicateFieldProblems,
  type FieldTarget,
  guessFieldMapping,
  type MappingField,
  rowToFields,
} from "@/components/import/field-mapping";

/**
 * The directory person fields a CSV column can fill (POST /finder/directory/import's person), with the
 * header spellings of CRM, Apollo, Sales Navigator and spreadsheet exports each one is guessed from.
 * "Full name" is split at its first space into first and last name.
 */
export const PERSON_FIELDS = [
  { key: "firstName", label: "First name", aliases: ["firstname", "first", "givenname", "fname", "forename"] },
  { key: "lastName", label: "Last name", aliases: ["lastname", "last", "surname", "familyname", "lname"] },
  { key: "fullName", label: "Full name (split)", aliases: ["name", "fullname", "contactname", "personname", "contact"] },
  { key: "title", label: "Job title", aliases: ["title", "jobtitle", "position", "role", "designation", "headline"] },
  { key: "seniority", label: "Seniority", aliases: ["seniority", "senioritylevel", "level"] },
  { key: "department", label: "Department", aliases: ["department", "departments", "function", "jobfunction", "team"] },
  {
    key: "companyName",
    label: "Company name",
    aliases: ["company", "companyname", "organization", "organisation", "organizationname", "account", "accountname", "employer"],
  },
  {
    key: "companyDomain",
    label: "Company domain",
    aliases: ["companydomain", "domain", "website", "companywebsite", "websiteurl", "url", "companyurl", "web"],
  },
  { key: "industry", label: "Industry", aliases: ["industry", "companyindustry", "sector", "vertical"] },
  {
    key: "companySize",
    label: "Company size",
    aliases: ["companysize", "size", "employees", "employeecount", "numberofemployees", "noofemployees", "headcount", "staffcount"],
  },
  { key: "country", label: "Country", aliases: ["country", "countrycode", "personcountry", "location", "companycountry"] },
  { key: "city", label: "City", aliases: ["city", "personcity", "town", "companycity"] },
  {
    key: "linkedinUrl",
    label: "LinkedIn URL",
    aliases: ["linkedinurl", "linkedin", "linkedinprofile", "personlinkedinurl", "profileurl", "linkedinprofileurl"],
  },
  { key: "email", label: "Email", aliases: ["email", "emailaddress", "workemail", "businessemail", "mail", "contactemail"] },
  { key: "technologies", label: "Technologies (; or , between)", aliases: ["technologies", "technology", "techstack", "stack", "tools"] },
] as const satisfies readonly MappingField<string>[];

export type PersonFieldKey = (typeof PERSON_FIELDS)[number]["key"];
export type PersonColumnTarget = FieldTarget<PersonFieldKey>;
/** One person as the import takes it (empty cells left out). */
export type PersonItem = Partial<Record<Exclude<PersonFieldKey, "fullName">, string>>;

export const guessPersonMapping = (headers: string[]): PersonColumnTarget[] => guessFieldMapping(PERSON_FIELDS, headers);

/** What is wrong with a mapping, or nothing when it can be imported. */
export function personMappingProblems(mapping: PersonColumnTarget[]): string[] {
  const problems: string[] = [];
  if (!mapping.some((m) => m === "firstName" || m === "lastName" || m === "fullName" || m === "linkedinUrl")) {
    problems.push("Map a column to First name, Last name, Full name or LinkedIn URL: every person needs a name or a profile.");
  }
  if (mapping.includes("fullName") && (mapping.includes("firstName") || mapping.includes("lastName"))) {
    problems.push("Map either Full name or First name and Last name, not both.");
  }
  return [...problems, ...duplicateFieldProblems(PERSON_FIELDS, mapping)];
}

/** One CSV row as a person: the mapped, non-empty cells, a full name split at its first space. */
export function rowToPerson(row: Record<string, string>, headers: string[], mapping: PersonColumnTarget[]): PersonItem {
  const { fullName, ...fields } = rowToFields(row, headers, mapping);
  const person: PersonItem = fields;
  if (fullName) {
    const [first, ...rest] = fullName.split(/\s+/);
    person.firstName = first;
    if (rest.length) person.lastName = rest.join(" ");
  }
  return person;
}
