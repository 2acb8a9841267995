/**
 * The lead rows of bench:leads and bench:scale's leads part: one lead's fields from its number, the
 * 1,000-lead POST batches (10% already in the workspace, merged with one field changed), the same rows
 * as COPY rows, and the seeded addresses written by generate_series in SQL (the same fields as
 * leadInput gives, so a batch's merges find them).
 */
import type postgres from "postgres";
import type { CopyLead } from "./bench-util";

export const BATCH = 1000;
/** 1 lead in 10 (10%) of a batch is already in the workspace. */
export const EXISTING_EVERY = 10;
export const EXISTING_PER_BATCH = BATCH / EXISTING_EVERY;

export interface LeadInputLike {
  email: string;
  firstName: string;
  lastName: string;
  companyName: string;
  companyDomain: string;
  phoneNumber: string;
  jobTitle: string;
  timezone: string;
  customFields: Record<string, string>;
}

export function leadInput(email: string, j: number, jobTitle: string): LeadInputLike {
  const co = j % 97;
  return {
    email,
    firstName: `First${j}`,
    lastName: `Last${j}`,
    companyName: `Company ${co}`,
    companyDomain: `co${co}.example.com`,
    phoneNumber: `+1555${String(j).padStart(7, "0")}`,
    jobTitle,
    timezone: j % 3 === 0 ? "America/New_York" : "Europe/Berlin",
    customFields: { source: "bench", plan: j % 2 ? "pro" : "free" },
  };
}

export const seedEmail = (k: number) => `seed-${k}@co${k % 97}.example.com`;

/** Batch `round`: 900 new addresses and, at every 10th position, one seeded address (a merge that changes jobTitle). */
export function batch(round: number): LeadInputLike[] {
  const out: LeadInputLike[] = [];
  for (let j = 0; j < BATCH; j++) {
    if (j % EXISTING_EVERY === 0) out.push(leadInput(seedEmail(round * EXISTING_PER_BATCH + j / EXISTING_EVERY), j, "Engineer"));
    else out.push(leadInput(`r${round}-${j}@co${j % 97}.example.com`, j, "Engineer"));
  }
  return out;
}

/** A batch's lead as a COPY row of `workspaceId` (a fresh id). */
export function toCopy(newId: (prefix: "lead") => string, workspaceId: string, l: LeadInputLike, now: Date): CopyLead {
  return {
    id: newId("lead"),
    workspaceId,
    email: l.email,
    firstName: l.firstName,
    lastName: l.lastName,
    companyName: l.companyName,
    companyDomain: l.companyDomain,
    phoneNumber: l.phoneNumber,
    jobTitle: l.jobTitle,
    timezone: l.timezone,
    customFields: l.customFields,
    verificationStatus: "UNVERIFIED",
    createdAt: now,
    updatedAt: now,
  } as CopyLead;
}

/**
 * Seeded leads k in [from, to) of the workspace in one INSERT … SELECT over generate_series: the
 * fields of leadInput(seedEmail(k), k, "Seed"), ids `lead_<prefix>_<k>`. Runs the leads triggers once.
 */
export async function seedLeadsSql(sql: postgres.Sql, workspaceId: string, prefix: string, from: number, to: number): Promise<void> {
  await sql`
    insert into leads (id, workspace_id, email, first_name, last_name, company_name, company_domain, phone_number, job_title,
      timezone, custom_fields, verification_status, created_at, updated_at)
    select ${`lead_${prefix}_`} || k, ${workspaceId}, 'seed-' || k || '@co' || (k % 97) || '.example.com', 'First' || k, 'Last' || k,
      'Company ' || (k % 97), 'co' || (k % 97) || '.example.com', '+1555' || lpad(k::text, 7, '0'), 'Seed',
      case when k % 3 = 0 then 'America/New_York' else 'Europe/Berlin' end,
      jsonb_build_object('source', 'bench', 'plan', case when k % 2 = 1 then 'pro' else 'free' end), 'UNVERIFIED', now(), now()
    from generate_series(${from}::bigint, ${to - 1}::bigint) k
    order by k`;
}
