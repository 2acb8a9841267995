import { and, asc, eq, or, type SQL, sql } from "drizzle-orm";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { finderPeople as p } from "../../db/schema";
import type { PersonRow } from "./person-row";

/**
 * Who an imported row is, in the directory: the same person as one already there when they share the
 * LinkedIn URL (compared without protocol, `www.` or a country prefix, query and trailing slash, any
 * case), else the email, else first name, last name and company domain together (any case). A row with
 * none of these is always someone new.
 */

/** A LinkedIn profile URL as compared: "https://de.linkedin.com/in/Ada/?x=1" → "linkedin.com/in/ada". */
export function linkedinKey(url: string): string {
  return url
    .toLowerCase()
    .replace(/[?#].*$/, "")
    .replace(/^https?:\/\/((www|[a-z]{2})\.)?/, "")
    .replace(/\/+$/, "");
}

/** The row's identities, strongest first. */
export function identityKeys(r: Pick<PersonRow, "linkedinUrl" | "email" | "firstName" | "lastName" | "companyDomain">): string[] {
  const keys: string[] = [];
  if (r.linkedinUrl) keys.push(`li:${linkedinKey(r.linkedinUrl)}`);
  if (r.email) keys.push(`em:${r.email.toLowerCase()}`);
  if (r.firstName && r.lastName && r.companyDomain) {
    keys.push(`nd:${r.firstName.toLowerCase()}|${r.lastName.toLowerCase()}|${r.companyDomain.toLowerCase()}`);
  }
  return keys;
}

/** The same normalisation as linkedinKey, in SQL, so the lookup finds the rows linkedinKey would match. */
const linkedinSql = sql`rtrim(regexp_replace(regexp_replace(lower(${p.linkedinUrl}), ${"[?#].*$"}, ''), ${"^https?://((www|[a-z]{2})\\.)?"}, ''), '/')`;
const nameDomainSql = sql`lower(${p.firstName}) || '|' || lower(${p.lastName}) || '|' || lower(${p.companyDomain})`;

export type ExistingPerson = typeof p.$inferSelect;

/**
 * The workspace's people who share an identity with any of `rows`, by key (the oldest person when
 * several share one). The name-and-domain lookup goes through the domain index.
 */
export async function existingByKey(db: DbOrTx, workspaceId: string, rows: PersonRow[]): Promise<Map<string, ExistingPerson>> {
  const lis = new Set<string>();
  const emails = new Set<string>();
  const domains = new Set<string>();
  const nds = new Set<string>();
  for (const r of rows) {
    for (const k of identityKeys(r)) {
      if (k.startsWith("li:")) lis.add(k.slice(3));
      else if (k.startsWith("em:")) emails.add(k.slice(3));
      else nds.add(k.slice(3));
    }
    if (r.firstName && r.lastName && r.companyDomain) domains.add(r.companyDomain.toLowerCase());
  }
  const parts: SQL[] = [];
  if (lis.size) parts.push(sql`${p.linkedinUrl} is not null and ${linkedinSql} = ${anyOf([...lis])}`);
  if (emails.size) parts.push(sql`${p.email} = ${anyOf([...emails])}`);
  if (nds.size) parts.push(sql`${p.companyDomain} = ${anyOf([...domains])} and ${nameDomainSql} = ${anyOf([...nds])}`);
  const found = new Map<string, ExistingPerson>();
  if (!parts.length) return found;
  const matches = await db
    .select()
    .from(p)
    .where(and(eq(p.workspaceId, workspaceId), or(...parts)))
    .orderBy(asc(p.seq));
  for (const m of matches) {
    for (const k of identityKeys(m)) if (!found.has(k)) found.set(k, m);
  }
  return found;
}

/** The imported columns of a person, a row's non-empty values laid over what the directory has. */
export type PersonUpdate = PersonRow & {
  id: string;
  verificationStatus: ExistingPerson["verificationStatus"];
  espClass: ExistingPerson["espClass"];
};

/**
 * An update of `before` by `row`: every value the row has replaces the stored one, a blank cell keeps
 * it. A company domain the row only took from its email does not replace a stored one. A new email
 * is unverified again.
 */
export function mergePerson(
  before: PersonRow & Pick<PersonUpdate, "id" | "verificationStatus" | "espClass">,
  row: PersonRow,
  rowGaveDomain: boolean,
): PersonUpdate {
  const pickText = (k: keyof Omit<PersonRow, "technologies">) => row[k] ?? before[k];
  const emailChanged = row.email !== null && row.email !== before.email;
  return {
    id: before.id,
    firstName: pickText("firstName"),
    lastName: pickText("lastName"),
    title: pickText("title"),
    seniority: pickText("seniority"),
    department: pickText("department"),
    companyName: pickText("companyName"),
    companyDomain: rowGaveDomain ? row.companyDomain : (before.companyDomain ?? row.companyDomain),
    industry: pickText("industry"),
    companySize: pickText("companySize"),
    country: pickText("country"),
    city: pickText("city"),
    linkedinUrl: pickText("linkedinUrl"),
    email: pickText("email"),
    technologies: row.technologies.length ? row.technologies : before.technologies,
    verificationStatus: emailChanged ? "UNVERIFIED" : before.verificationStatus,
    espClass: emailChanged ? "UNKNOWN" : before.espClass,
  };
}
