import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { leadDomains, leads } from "../../db/schema";
import type { LeadState } from "./merge";

/** The lead fields the merge rules own: the columns read for a merge and written by insert and update. */
const FIELDS = {
  id: leads.id,
  email: leads.email,
  firstName: leads.firstName,
  lastName: leads.lastName,
  companyName: leads.companyName,
  companyDomain: leads.companyDomain,
  phoneNumber: leads.phoneNumber,
  jobTitle: leads.jobTitle,
  timezone: leads.timezone,
  customFields: leads.customFields,
  verificationStatus: leads.verificationStatus,
};
type FieldKey = keyof typeof FIELDS & string;

/**
 * The written fields in the order a row travels in: each lead goes as a JSON array of their values, not
 * an object — no field names repeated in every row (~40% of a 1,000-lead insert's bytes), so
 * JSON.stringify here and the server's jsonb parse have less to do. The server reads them by position.
 */
const ROW_KEYS = [
  "id",
  "email",
  "firstName",
  "lastName",
  "companyName",
  "companyDomain",
  "phoneNumber",
  "jobTitle",
  "timezone",
  "customFields",
  "verificationStatus",
] as const satisfies readonly FieldKey[];
type RowKey = (typeof ROW_KEYS)[number];

const toRow = (id: string, s: LeadState) => ROW_KEYS.map((k) => (k === "id" ? id : s[k]));

/** The rows as `r(v, n)`: `r.v` one lead's array, `r.n` its position (from 1), for a FROM. */
const rowsOf = (rows: { id: string; state: LeadState }[]) =>
  sql`jsonb_array_elements(${JSON.stringify(rows.map((r) => toRow(r.id, r.state)))}::jsonb) with ordinality as r(v, n)`;

/** Field `key` of the current row, as its column's type. */
function field(key: RowKey): SQL {
  const i = ROW_KEYS.indexOf(key);
  const type = FIELDS[key].getSQLType();
  return sql.raw(type === "jsonb" ? `r.v->${i}` : `(r.v->>${i})::${type}`);
}

/** The address domain of an address column or field, written as leads_esp_class_domain_idx indexes it. */
const domainOf = (email: SQL | typeof leads.email) => sql`lower(split_part(${email}, '@', 2))`;

const column = (key: FieldKey) => sql.identifier(FIELDS[key].name);

const dialect = new PgDialect();

/** A fragment without parameters, rendered to text once: drizzle would build it again for every statement. */
const rendered = (fragment: SQL) => sql.raw(dialect.sqlToQuery(fragment).sql);

const ROW_DOMAIN = rendered(domainOf(field("email")));
const ROW_ID = rendered(field("id"));
const INSERT_COLUMNS = rendered(
  sql.join(
    [...ROW_KEYS.map(column), ...[leads.workspaceId, leads.espClass, leads.createdAt, leads.updatedAt].map((c) => sql.identifier(c.name))],
    sql`, `,
  ),
);
const INSERT_FIELDS = rendered(sql.join(ROW_KEYS.map(field), sql`, `));
const UPDATE_SETS = rendered(
  sql.join(
    [
      ...ROW_KEYS.filter((k) => k !== "id").map((k) => sql`${column(k)} = ${field(k)}`),
      // A lead whose address moves to another domain takes that domain's cached ESP class (or UNKNOWN).
      sql`${sql.identifier(leads.espClass.name)} = case when ${domainOf(leads.email)} = ${domainOf(field("email"))}
        then ${leads.espClass} else coalesce(d.esp_class, 'UNKNOWN') end`,
    ],
    sql`, `,
  ),
);

/** Many leads in one statement: the rows travel as one JSON parameter, so a 1,000-lead import is a single round trip. */
export async function insertLeadRows(db: DbOrTx, workspaceId: string, rows: { id: string; state: LeadState }[], now: Date) {
  if (rows.length === 0) return;
  const at = now.toISOString();
  // Insertion order is the `seq` order: keep the order the leads were sent in. A lead at an address
  // domain already looked up takes its ESP class now; the others stay UNKNOWN for the job (lib/campaigns/esp-class.ts).
  // The text starts with its verb: BENCH_PROFILE=1's statement log names a statement by its first line.
  await db.execute(sql`insert into ${leads} (${INSERT_COLUMNS})
    select ${INSERT_FIELDS}, ${workspaceId}, coalesce(d.esp_class, 'UNKNOWN'), ${at}::timestamptz, ${at}::timestamptz
    from ${rowsOf(rows)}
    left join ${leadDomains} d on d.domain = ${ROW_DOMAIN}
    order by r.n`);
}

/** Writes the rows' fields; a lead whose address moves to another domain takes that domain's cached ESP class (or UNKNOWN). */
export async function updateLeadRows(db: DbOrTx, workspaceId: string, rows: { id: string; state: LeadState }[], now: Date) {
  if (rows.length === 0) return;
  // The ids are sent once more as a list, so the planner finds the rows by primary key rather than by
  // hashing every lead of the workspace.
  await db.execute(sql`update ${leads} set ${UPDATE_SETS}, ${sql.identifier(leads.updatedAt.name)} = ${now.toISOString()}::timestamptz
    from ${rowsOf(rows)}
    left join ${leadDomains} d on d.domain = ${ROW_DOMAIN}
    where ${leads.id} = ${ROW_ID} and ${leads.workspaceId} = ${workspaceId} and ${leads.id} = ${anyOf(rows.map((r) => r.id))}`);
}

type StoredLead = { id: string; state: LeadState };

/** The merge-owned fields under their LeadState names, rendered once like the statements above. */
const SELECT_STORED = rendered(
  sql`select ${sql.join(
    ROW_KEYS.map((k) => sql`${column(k)} as ${sql.identifier(k)}`),
    sql`, `,
  )} from ${leads}`,
);

async function lockedLeads(db: DbOrTx, workspaceId: string, where: SQL): Promise<StoredLead[]> {
  // Pick: a mapped copy of the interface, which selectRows' Record<string, unknown> bound accepts.
  const rows = await selectRows<{ id: string } & Pick<LeadState, keyof LeadState>>(
    db,
    sql`${SELECT_STORED} where ${leads.workspaceId} = ${workspaceId} and ${where} for update`,
  );
  return rows.map(({ id, ...state }) => ({ id, state: { ...state, customFields: state.customFields ?? {} } }));
}

/** Existing leads by address (case-insensitive), locked for the rest of the transaction. */
export async function findLeadsByEmails(db: DbOrTx, workspaceId: string, emails: string[]): Promise<Map<string, StoredLead>> {
  if (emails.length === 0) return new Map();
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  // `= any(array)`, not `in (subquery)`: the planner then probes leads_workspace_email_uq once per
  // address instead of hashing the list and scanning every lead of the table (~3× faster at 27k leads).
  const found = await lockedLeads(db, workspaceId, sql`lower(${leads.email}) = ${anyOf(lowered)}`);
  return new Map(found.map((s) => [s.state.email.toLowerCase(), s]));
}

export async function findLeadsByIds(db: DbOrTx, workspaceId: string, ids: string[]): Promise<Map<string, StoredLead>> {
  if (ids.length === 0) return new Map();
  const found = await lockedLeads(db, workspaceId, sql`${leads.id} = ${anyOf([...new Set(ids)])}`);
  return new Map(found.map((s) => [s.id, s]));
}

/** Serialises lead writes of one workspace, so two imports of the same address cannot race. */
export async function lockWorkspaceLeads(db: DbOrTx, workspaceId: string): Promise<void> {
  await selectRows(db, sql`select pg_advisory_xact_lock(hashtext(${`leads:${workspaceId}`}))`);
}
