import { sql, type SQL } from "drizzle-orm";
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

function iso(v: unknown): string {
  return (v instanceof Date ? v : new Date(String(v))).toISOString();
}

export function leadViewFromRow(r: Record<string, unknown>): LeadView {
  return {
    id: r.id as string,
    email: r.email as string,
    firstName: (r.first_name as string) ?? null,
    lastName: (r.last_name as string) ?? null,
    companyName: (r.company_name as string) ?? null,
    companyDomain: (r.company_domain as string) ?? null,
    phoneNumber: (r.phone_number as string) ?? null,
    jobTitle: (r.job_title as string) ?? null,
    timezone: (r.timezone as string) ?? null,
    customFields: (r.custom_fields as Record<string, string>) ?? {},
    verificationStatus: r.verification_status as LeadView["verificationStatus"],
    espClass: r.esp_class as LeadView["espClass"],
    tags: (r.tags as LeadView["tags"]) ?? [],
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** GET /leads: newest first by insertion order, so paging returns each lead exactly once (spec 4.4). */
export async function listLeads(ctx: Ctx, q: ListLeadsQuery): Promise<{ rows: LeadView[]; total: number }> {
  requireAccess(ctx, "read");
  const where: SQL[] = [sql`l.workspace_id = ${ctx.workspaceId}`];
  if (q.q?.trim()) {
    const like = `%${q.q.trim().replace(/[\\%_]/g, (c) => "\\" + c)}%`;
    where.push(sql`(l.email ilike ${like} or l.first_name ilike ${like} or l.last_name ilike ${like} or l.company_name ilike ${like}
      or (coalesce(l.first_name,'') || ' ' || coalesce(l.last_name,'')) ilike ${like})`);
  }
  if (q.verificationStatus) where.push(sql`l.verification_status = ${q.verificationStatus}`);
  if (q.espClass) where.push(sql`l.esp_class = ${q.espClass}`);
  if (q.tagId) where.push(sql`exists (select 1 from lead_tags lt where lt.lead_id = l.id and lt.tag_id = ${q.tagId})`);
  const cond = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    ctx.db.execute(sql`select ${VIEW_COLS} from leads l where ${cond} order by l.seq desc limit ${q.limit} offset ${offsetOf(q)}`),
    ctx.db.execute(sql`select count(*)::int as n from leads l where ${cond}`),
  ]);
  return {
    rows: (rows as unknown as Record<string, unknown>[]).map(leadViewFromRow),
    total: (count as unknown as { n: number }[])[0].n,
  };
}

export async function getLeadViews(db: DbOrTx, workspaceId: string, ids: string[]): Promise<LeadView[]> {
  if (ids.length === 0) return [];
  const rows = await db.execute(
    sql`select ${VIEW_COLS} from leads l where l.workspace_id = ${workspaceId} and l.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
  );
  const byId = new Map((rows as unknown as Record<string, unknown>[]).map((r) => [r.id as string, leadViewFromRow(r)]));
  return ids.map((id) => byId.get(id)).filter((v): v is LeadView => !!v);
}

export async function getLead(ctx: Ctx, id: string): Promise<LeadView> {
  requireAccess(ctx, "read");
  const [lead] = await getLeadViews(ctx.db, ctx.workspaceId, [id]);
  if (!lead) throw new NotFoundError("Lead");
  return lead;
}
