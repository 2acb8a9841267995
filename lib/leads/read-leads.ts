import { sql, type SQL } from "drizzle-orm";
import { selectRows, valuesOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { offsetOf } from "../paging";
import type { LeadView, ListLeadsQuery } from "./schemas";

const VIEW_COLS = sql.raw(`
  l.id, l.email, l.first_name, l.last_name, l.company_name, l.company_domain, l.phone_number, l.job_title,
  l.timezone, l.custom_fields, l.verification_status, l.esp_class, l.created_at, l.updated_at,
  coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
            from lead_tags lt join tags t on t.id = lt.tag_id where lt.lead_id = l.id), '[]'::json) as tags`);

/** A row of VIEW_COLS as the driver returns it (timestamps as text). */
interface LeadRow extends Record<string, unknown> {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  company_domain: string | null;
  phone_number: string | null;
  job_title: string | null;
  timezone: string | null;
  custom_fields: Record<string, string> | null;
  verification_status: LeadView["verificationStatus"];
  esp_class: LeadView["espClass"];
  tags: LeadView["tags"] | null;
  created_at: string | Date;
  updated_at: string | Date;
}

function iso(v: string | Date): string {
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

function leadViewFromRow(r: LeadRow): LeadView {
  return {
    id: r.id,
    email: r.email,
    firstName: r.first_name ?? null,
    lastName: r.last_name ?? null,
    companyName: r.company_name ?? null,
    companyDomain: r.company_domain ?? null,
    phoneNumber: r.phone_number ?? null,
    jobTitle: r.job_title ?? null,
    timezone: r.timezone ?? null,
    customFields: r.custom_fields ?? {},
    verificationStatus: r.verification_status,
    espClass: r.esp_class,
    tags: r.tags ?? [],
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/**
 * What a search looks in, one text: the address, first and last name and company, with spaces between.
 * leads_search_trgm_idx (a pg_trgm GIN index) is over this same expression, so an ilike on it is read by
 * index; any one field matching means this text matches, so it only narrows the rows first.
 */
const SEARCH_TEXT = sql.raw(
  `(l.email || ' ' || coalesce(l.first_name, '') || ' ' || coalesce(l.last_name, '') || ' ' || coalesce(l.company_name, ''))`,
);

/**
 * Above this many matches, the page is read newest first through the workspace's seq index, stopping at
 * the page's end (matches are dense, so that is quick); below it, the matches are found by the search
 * index and sorted (a rare address would otherwise cost a walk of the whole workspace).
 */
const DENSE_MATCHES = 5000;

/** GET /leads: newest first by insertion order, so paging returns each lead exactly once. */
export async function listLeads(ctx: Ctx, q: ListLeadsQuery): Promise<{ rows: LeadView[]; total: number }> {
  requireAccess(ctx, "read");
  const where: SQL[] = [sql`l.workspace_id = ${ctx.workspaceId}`];
  let search: SQL | undefined;
  if (q.q?.trim()) {
    const like = `%${q.q.trim().replace(/[\\%_]/g, (c) => "\\" + c)}%`;
    const fullName = sql`(coalesce(l.first_name,'') || ' ' || coalesce(l.last_name,''))`;
    where.push(sql`(l.email ilike ${like} or l.first_name ilike ${like} or l.last_name ilike ${like}
      or l.company_name ilike ${like} or ${fullName} ilike ${like})`);
    search = sql`${SEARCH_TEXT} ilike ${like}`;
  }
  if (q.verificationStatus) where.push(sql`l.verification_status = ${q.verificationStatus}`);
  if (q.espClass) where.push(sql`l.esp_class = ${q.espClass}`);
  if (q.tagId) where.push(sql`exists (select 1 from lead_tags lt where lt.lead_id = l.id and lt.tag_id = ${q.tagId})`);
  const cond = sql.join(where, sql` and `);
  const pageOf = (c: SQL) => sql`select ${VIEW_COLS} from leads l where ${c} order by l.seq desc limit ${q.limit} offset ${offsetOf(q)}`;
  if (!search) {
    const [rows, [{ n }]] = await Promise.all([
      selectRows<LeadRow>(ctx.db, pageOf(cond)),
      selectRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from leads l where ${cond}`),
    ]);
    return { rows: rows.map(leadViewFromRow), total: n };
  }
  // A search: counted by the index first, then the page read the way that many matches is cheapest.
  const [{ n }] = await selectRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from leads l where ${search} and ${cond}`);
  if (n <= offsetOf(q)) return { rows: [], total: n };
  const rows = await selectRows<LeadRow>(ctx.db, pageOf(n > DENSE_MATCHES ? cond : sql`${search} and ${cond}`));
  return { rows: rows.map(leadViewFromRow), total: n };
}

export async function getLeadViews(db: DbOrTx, workspaceId: string, ids: string[]): Promise<LeadView[]> {
  if (ids.length === 0) return [];
  const rows = await selectRows<LeadRow>(
    db,
    sql`select ${VIEW_COLS} from leads l where l.workspace_id = ${workspaceId} and l.id in ${valuesOf(ids)}`,
  );
  const byId = new Map(rows.map((r) => [r.id, leadViewFromRow(r)]));
  return ids.map((id) => byId.get(id)).filter((v): v is LeadView => !!v);
}

export async function getLead(ctx: Ctx, id: string): Promise<LeadView> {
  requireAccess(ctx, "read");
  const [lead] = await getLeadViews(ctx.db, ctx.workspaceId, [id]);
  if (!lead) throw new NotFoundError("Lead");
  return lead;
}
