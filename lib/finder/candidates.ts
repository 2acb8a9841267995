import { and, eq, isNotNull, sql } from "drizzle-orm";
import { anyOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { finderPeople, leads } from "../../db/schema";
import { candidateEmails, learnedPatterns, type Pattern } from "./patterns";

/** The people of an enrichment job and the addresses to try for each (colleagues' patterns first). */

export type PersonForEnrich = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  companyDomain: string | null;
  email: string | null;
};

/** Per domain, the patterns of the workspace's known addresses there: its leads and its directory people with an email. */
export async function colleaguePatterns(db: DbOrTx, workspaceId: string, domains: string[]): Promise<Map<string, Pattern[]>> {
  const out = new Map<string, Pattern[]>();
  if (!domains.length) return out;
  const domainOf = sql<string>`lower(split_part(${leads.email}, '@', 2))`;
  const [fromLeads, fromPeople] = await Promise.all([
    db
      .select({ email: leads.email, firstName: leads.firstName, lastName: leads.lastName, domain: domainOf })
      .from(leads)
      .where(and(eq(leads.workspaceId, workspaceId), sql`${domainOf} = ${anyOf(domains)}`)),
    db
      .select({
        email: finderPeople.email,
        firstName: finderPeople.firstName,
        lastName: finderPeople.lastName,
        domain: finderPeople.companyDomain,
      })
      .from(finderPeople)
      .where(
        and(
          eq(finderPeople.workspaceId, workspaceId),
          sql`${finderPeople.companyDomain} = ${anyOf(domains)}`,
          isNotNull(finderPeople.email),
          // A found address that did not verify teaches nothing.
          sql`${finderPeople.verificationStatus} in ('VALID', 'UNVERIFIED')`,
        ),
      ),
  ]);
  const byDomain = new Map<string, { email: string; firstName: string | null; lastName: string | null }[]>();
  for (const c of [...fromLeads, ...fromPeople]) {
    if (!c.email || !c.domain || c.email.split("@")[1]?.toLowerCase() !== c.domain) continue;
    byDomain.set(c.domain, [...(byDomain.get(c.domain) ?? []), { email: c.email, firstName: c.firstName, lastName: c.lastName }]);
  }
  for (const [domain, colleagues] of byDomain) out.set(domain, learnedPatterns(colleagues));
  return out;
}

/** A person's addresses to try: a known email alone; else guesses at the company domain (none without a domain or a name). */
export function candidatesFor(p: PersonForEnrich, learned: Map<string, Pattern[]>): string[] {
  if (p.email) return [p.email];
  if (!p.companyDomain) return [];
  return candidateEmails(p, p.companyDomain, learned.get(p.companyDomain));
}
