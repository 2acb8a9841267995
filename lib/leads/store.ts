import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import type { LeadState } from "./merge";

/** Column list of the JSON records below, in one place for insert and update. */
const RECORD = sql.raw(
  `id text, email text, first_name text, last_name text, company_name text, company_domain text, phone_number text, job_title text, timezone text, custom_fields jsonb, verification_status text`,
);

function toRecord(id: string, s: LeadState) {
  return {
    id,
    email: s.email,
    first_name: s.firstName,
    last_name: s.lastName,
    company_name: s.companyName,
    company_domain: s.companyDomain,
    phone_number: s.phoneNumber,
    job_title: s.jobTitle,
    timezone: s.timezone,
    custom_fields: s.customFields,
    verification_status: s.verificationStatus,
  };
}

/**
 * Many leads in one statement: the rows travel as one JSON parameter and are expanded by
 * jsonb_to_recordset, which keeps a 1,000-lead import to a single round trip.
 */
export async function insertLeadRows(db: DbOrTx, workspaceId: string, rows: { id: string; state: LeadState }[], now: Date) {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r, ord) => ({ ...toRecord(r.id, r.state), ord })));
  // Insertion order is the `seq` order: keep the order the leads were sent in. A lead at an address
  // domain already looked up takes its ESP class now; the others stay UNKNOWN for the job (esp-class.ts).
  await db.execute(sql`
    insert into leads (id, workspace_id, email, first_name, last_name, company_name, company_domain, phone_number, job_title, timezone, custom_fields, verification_status, esp_class, created_at, updated_at)
    select v.id, ${workspaceId}, v.email, v.first_name, v.last_name, v.company_name, v.company_domain, v.phone_number, v.job_title, v.timezone,
           coalesce(v.custom_fields, '{}'::jsonb), v.verification_status::lead_verification_status, coalesce(d.esp_class, 'UNKNOWN'),
           ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as v(${RECORD}, ord int)
    left join lead_domains d on d.domain = lower(split_part(v.email, '@', 2))
    order by v.ord`);
}

/** Writes the rows' fields; a lead whose address moves to another domain takes that domain's cached ESP class (or UNKNOWN). */
export async function updateLeadRows(db: DbOrTx, workspaceId: string, rows: { id: string; state: LeadState }[], now: Date) {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r) => toRecord(r.id, r.state)));
  await db.execute(sql`
    update leads l set
      email = v.email, first_name = v.first_name, last_name = v.last_name, company_name = v.company_name,
      company_domain = v.company_domain, phone_number = v.phone_number, job_title = v.job_title, timezone = v.timezone,
      custom_fields = coalesce(v.custom_fields, '{}'::jsonb), verification_status = v.verification_status::lead_verification_status,
      esp_class = case when lower(split_part(l.email, '@', 2)) = lower(split_part(v.email, '@', 2)) then l.esp_class
                       else coalesce(d.esp_class, 'UNKNOWN') end,
      updated_at = ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as v(${RECORD})
    left join lead_domains d on d.domain = lower(split_part(v.email, '@', 2))
    where l.id = v.id and l.workspace_id = ${workspaceId}`);
}

type StoredLead = { id: string; state: LeadState };

function fromRow(r: Record<string, unknown>): StoredLead {
  return {
    id: r.id as string,
    state: {
      email: r.email as string,
      firstName: r.first_name as string | null,
      lastName: r.last_name as string | null,
      companyName: r.company_name as string | null,
      companyDomain: r.company_domain as string | null,
      phoneNumber: r.phone_number as string | null,
      jobTitle: r.job_title as string | null,
      timezone: r.timezone as string | null,
      customFields: (r.custom_fields as Record<string, string>) ?? {},
      verificationStatus: r.verification_status as LeadState["verificationStatus"],
    },
  };
}

const SELECT_COLS = sql.raw(
  `id, email, first_name, last_name, company_name, company_domain, phone_number, job_title, timezone, custom_fields, verification_status`,
);

/** Existing leads by address (case-insensitive), locked for the rest of the transaction. */
export async function findLeadsByEmails(db: DbOrTx, workspaceId: string, emails: string[]): Promise<Map<string, StoredLead>> {
  const out = new Map<string, StoredLead>();
  if (emails.length === 0) return out;
  const lowered = JSON.stringify([...new Set(emails.map((e) => e.toLowerCase()))]);
  const rows = await db.execute(sql`
    select ${SELECT_COLS} from leads
    where workspace_id = ${workspaceId}
      and lower(email) in (select jsonb_array_elements_text(${lowered}::jsonb))
    for update`);
  for (const r of rows as unknown as Record<string, unknown>[]) {
    const s = fromRow(r);
    out.set(s.state.email.toLowerCase(), s);
  }
  return out;
}

export async function findLeadsByIds(db: DbOrTx, workspaceId: string, ids: string[]): Promise<Map<string, StoredLead>> {
  const out = new Map<string, StoredLead>();
  if (ids.length === 0) return out;
  const list = JSON.stringify([...new Set(ids)]);
  const rows = await db.execute(sql`
    select ${SELECT_COLS} from leads
    where workspace_id = ${workspaceId} and id in (select jsonb_array_elements_text(${list}::jsonb))
    for update`);
  for (const r of rows as unknown as Record<string, unknown>[]) {
    const s = fromRow(r);
    out.set(s.id, s);
  }
  return out;
}

/** Serialises lead writes of one workspace, so two imports of the same address cannot race. */
export async function lockWorkspaceLeads(db: DbOrTx, workspaceId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${"leads:" + workspaceId}))`);
}
