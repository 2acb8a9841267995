import { sql, type SQL } from "drizzle-orm";
import type postgres from "postgres";
import { z } from "zod";
import { selectRows } from "../../db/bulk";
import { campaignLeadStatusEnum } from "../../db/schema";
import { audit } from "../audit/record";
import { requireAccess, requireRole, type Ctx } from "../ctx";
import { NotFoundError, ValidationError } from "../errors";
import { copyCsvStream, csvCell, inlined } from "./copy-csv";
import { csvHeaders, csvLines } from "./csv";

/** leads.csv holds up to 50,000 leads; more matching is refused, never cut short silently. */
export const LEADS_CSV_MAX = 50_000;

/** An id in the query string: no NUL (Postgres text cannot hold one). */
const idParam = z
  .string()
  .max(200)
  .refine((v) => !v.includes("\0"), "must not hold a NUL character");

export const leadsCsvQuery = z.object({
  campaignId: idParam.optional(),
  tagId: idParam.optional(),
  /** A campaign lead status: leads in the campaign (or any campaign) with it. */
  status: z.enum(campaignLeadStatusEnum.enumValues).optional(),
});
export type LeadsCsvQuery = z.infer<typeof leadsCsvQuery>;

/** Each column: its header, its SQL, and whether it is free text (may be an empty string: COPY's cell via csvCell). */
const FIELDS = [
  ["id", sql`l.id`, false],
  ["email", sql`l.email`, true],
  ["firstName", sql`l.first_name`, true],
  ["lastName", sql`l.last_name`, true],
  ["companyName", sql`l.company_name`, true],
  ["companyDomain", sql`l.company_domain`, true],
  ["phoneNumber", sql`l.phone_number`, true],
  ["jobTitle", sql`l.job_title`, true],
  ["timezone", sql`l.timezone`, true],
  ["verificationStatus", sql`l.verification_status`, false],
  ["espClass", sql`l.esp_class`, false],
  ["createdAt", sql`to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, false],
] as const;

async function filterOf(ctx: Ctx, q: LeadsCsvQuery): Promise<SQL> {
  const conds: SQL[] = [sql`l.workspace_id = ${ctx.workspaceId}`];
  if (q.campaignId) {
    // Checked here rather than through lib/campaigns, which counts through this folder: another workspace's campaign → 404.
    const [c] = await selectRows(ctx.db, sql`select 1 from campaigns where id = ${q.campaignId} and workspace_id = ${ctx.workspaceId}`);
    if (!c) throw new NotFoundError("Campaign");
  }
  if (q.tagId) {
    const [t] = await selectRows(ctx.db, sql`select 1 from tags where id = ${q.tagId} and workspace_id = ${ctx.workspaceId}`);
    if (!t) throw new NotFoundError("Tag");
    conds.push(sql`exists (select 1 from lead_tags lt where lt.lead_id = l.id and lt.tag_id = ${q.tagId})`);
  }
  if (q.campaignId || q.status) {
    const inCampaign = q.campaignId ? sql`and cl.campaign_id = ${q.campaignId}` : sql``;
    const withStatus = q.status ? sql`and cl.status = ${q.status}` : sql``;
    conds.push(sql`exists (select 1 from campaign_leads cl where cl.lead_id = l.id ${inCampaign} ${withStatus})`);
  }
  return sql.join(conds, sql` and `);
}

/**
 * The matching leads, each field as text in column order (custom fields by key with `->>`: no JSON to
 * parse). `forCopy`: free-text cells through csvCell (an empty string as NULL), for COPY's CSV writer.
 */
function rowsSql(from: SQL, keys: readonly string[], forCopy: boolean): SQL {
  const cell = (c: SQL, text: boolean) => (forCopy && text ? csvCell(c) : c);
  const cols = [...FIELDS.map(([, c, text]) => cell(c, text)), ...keys.map((k) => cell(sql`l.custom_fields ->> ${k}`, true))];
  const named = cols.map((c, i) => sql`${c} as ${sql.raw(`c${i}`)}`); // distinct names: rows read as objects keep every column
  return sql`select ${sql.join(named, sql`, `)} from ${from} order by l.seq`;
}

type Cells = (string | null)[];

/** The columns of leads the CSV reads (FIELDS, custom fields, the order). */
const COLUMNS = sql.raw(
  "l.seq, l.id, l.email, l.first_name, l.last_name, l.company_name, l.company_domain, l.phone_number, l.job_title, l.timezone, l.verification_status, l.esp_class, l.created_at, l.custom_fields",
);
/** The session's copy of the matching leads (leadsCsv on a pooled connection). */
const TEMP = "leads_csv_rows";
const TEMP_BUFFERS = "64MB";

/** The custom field keys of the leads `from` (aliased l) holds, sorted. */
function keysSql(from: SQL): SQL {
  return sql`array(select distinct k from ${from}, jsonb_object_keys(l.custom_fields) k order by 1)`;
}

function tooMany(n: number): ValidationError {
  return new ValidationError(`${n} leads match; leads.csv holds at most ${LEADS_CSV_MAX}. Narrow it with campaignId, tagId or status`, {
    fieldErrors: {},
    formErrors: [`${n} leads match; at most ${LEADS_CSV_MAX}`],
  });
}

function headerOf(keys: readonly string[]): string {
  const standard = new Set<string>(FIELDS.map(([h]) => h));
  return csvLines([], [...FIELDS.map(([h]) => h), ...keys.map((k) => (standard.has(k) ? `custom:${k}` : k))]);
}

/**
 * On a pooled connection Postgres writes the CSV (copy-csv.ts). The matching leads are read ONCE, into
 * a temporary table of a reserved connection: the count, the custom field keys and the COPY then read
 * that table instead of joining and filtering the workspace's leads twice (with a tag's 50,000 of
 * 500,000 leads, the filter was most of the time). The table is dropped and the connection released
 * when the COPY ends, fails, or the count refuses the download.
 */
async function viaCopy(client: postgres.Sql, where: SQL, allowed: (n: number) => Promise<void>): Promise<Response> {
  const conn = await client.reserve();
  let done = false;
  const finish = async () => {
    if (done) return;
    done = true;
    try {
      await conn.unsafe(`drop table if exists pg_temp.${TEMP}`);
    } finally {
      conn.release();
    }
  };
  try {
    // The copy (up to 50,000 leads, ~10 MB) in the session's local buffers, not spilled to temp files
    // (default 8 MB: the download took 650–850 ms instead of ~490). Settable until the session's first
    // temporary table; a session that already has other buffers keeps them (refused, harmless).
    await conn.unsafe(`set temp_buffers = '${TEMP_BUFFERS}'`).catch(() => {});
    await conn.unsafe(`drop table if exists pg_temp.${TEMP}`);
    // The statement's row count is the number of matching leads; the keys are read from the copy.
    const { count: n } = await conn.unsafe(
      inlined(sql`create temp table ${sql.raw(TEMP)} as select ${COLUMNS} from leads l where ${where}`),
    );
    const from = sql`${sql.raw(TEMP)} l`;
    const [{ keys }] = await conn.unsafe<{ keys: string[] }[]>(inlined(sql`select ${keysSql(from)} as keys`));
    if (n > LEADS_CSV_MAX) throw tooMany(n);
    await allowed(n);
    const body = await copyCsvStream(conn, rowsSql(from, keys, true), headerOf(keys), () => finish().catch(() => {}));
    return new Response(body, { headers: csvHeaders("leads.csv") });
  } catch (e) {
    await finish();
    throw e;
  }
}

/** The audit row of a download: the filters it was made with and how many leads it holds. */
async function auditDownload(ctx: Ctx, q: LeadsCsvQuery, leads: number): Promise<void> {
  const filters = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined));
  await audit(ctx, "report.leads_csv", { type: "report", label: "leads.csv" }, { filters, leads });
}

/**
 * GET /reports/leads.csv (owner or admin): the matching leads' fields plus one column per custom field
 * key, streamed as the client reads. Over 50,000 matching → 400 VALIDATION_ERROR before anything is
 * written. On a pooled connection Postgres writes the CSV itself (viaCopy: COPY … TO STDOUT, the same
 * bytes as csvLines); inside a transaction (a test's or a job's) the rows are read and written by
 * csvLines (csv-stringify's bytes, proven by csv.test.ts, at a fraction of its cost).
 */
export async function leadsCsv(ctx: Ctx, q: LeadsCsvQuery): Promise<Response> {
  requireAccess(ctx, "read");
  requireRole(ctx, "admin");
  const where = await filterOf(ctx, q);
  if ("$client" in ctx.db) return viaCopy(ctx.db.$client, where, (n) => auditDownload(ctx, q, n));
  const from = sql`(select ${COLUMNS} from leads l where ${where}) l`; // the temp table's rows, as a subquery
  const [{ n, keys }] = await selectRows<{ n: number; keys: string[] }>(
    ctx.db,
    sql`select (select count(*) from ${from})::int as n, ${keysSql(from)} as keys`,
  );
  if (n > LEADS_CSV_MAX) throw tooMany(n);
  await auditDownload(ctx, q, n);
  const rows = (await selectRows(ctx.db, rowsSql(from, keys, false))).map((r) => Object.values(r) as Cells);
  return new Response(headerOf(keys) + csvLines(rows), { headers: csvHeaders("leads.csv") });
}
