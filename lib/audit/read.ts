import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import type { Ctx } from "../ctx";
import { ValidationError } from "../errors";
import { offsetOf, pageQuery } from "../paging";
import { AUDIT_ACTIONS } from "./record";

/** Audit rows older than this are deleted by the clean-up job. */
export const AUDIT_RETENTION_DAYS = 365;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .describe("An ISO date-time, or a date (YYYY-MM-DD, UTC): as `from` its start, as `to` its end (the whole day included)");

export const auditLogQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  action: z.enum(AUDIT_ACTIONS).optional(),
  actorId: z
    .string()
    .max(200)
    .optional()
    .describe("A user's id (their own actions and those of the API keys they created) or an API key's id"),
  from: instant.optional(),
  to: instant.optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

const DAY_MS = 86_400_000;

/** The instants the range covers: `from` inclusive, `to` exclusive (a bare date's `to` is the next midnight). */
export function rangeOf(q: Pick<AuditLogQuery, "from" | "to">): { from?: Date; to?: Date } {
  const from = q.from ? new Date(DATE_ONLY.test(q.from) ? `${q.from}T00:00:00Z` : q.from) : undefined;
  let to: Date | undefined;
  if (q.to) to = DATE_ONLY.test(q.to) ? new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS) : new Date(Date.parse(q.to) + 1);
  if (from && to && to <= from) throw ValidationError.field("to", "must be after from");
  return { from, to };
}

type Row = {
  id: string;
  at: Date | string;
  actor_type: "user" | "api_key" | "system";
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
};

function entryView(r: Row) {
  return {
    id: r.id,
    at: new Date(r.at).toISOString(),
    actor: { type: r.actor_type, id: r.actor_id, label: r.actor_label },
    action: r.action,
    target: r.target_type ? { type: r.target_type, id: r.target_id, label: r.target_label } : null,
    ip: r.ip,
    detail: r.detail ?? {},
  };
}
export type AuditEntry = ReturnType<typeof entryView>;

/**
 * Which rows a workspace's log shows: its own, and the account-level rows (sign-ins, two-factor,
 * password) of the users who are its members now. Both halves use their own index (workspace and
 * time; subject user and time).
 */
function conditions(workspaceId: string, q: AuditLogQuery): SQL {
  const conds: SQL[] = [
    sql`(a.workspace_id = ${workspaceId} or (a.workspace_id is null and a.subject_user_id in
      (select m.user_id from memberships m where m.workspace_id = ${workspaceId})))`,
  ];
  if (q.action) conds.push(sql`a.action = ${q.action}`);
  if (q.actorId) {
    conds.push(sql`(a.actor_id = ${q.actorId} or (a.actor_type = 'api_key' and a.actor_id in
      (select k.id from api_keys k where k.workspace_id = ${workspaceId} and k.created_by = ${q.actorId})))`);
  }
  const { from, to } = rangeOf(q);
  if (from) conds.push(sql`a.at >= ${from.toISOString()}::timestamptz`);
  if (to) conds.push(sql`a.at < ${to.toISOString()}::timestamptz`);
  return sql.join(conds, sql` and `);
}

/** GET /account/audit-log: the workspace's log, newest first (owner or admin; the route checks). */
export async function listAuditLog(ctx: Ctx, q: AuditLogQuery) {
  const where = conditions(ctx.workspaceId, q);
  const [rows, [{ n }]] = await Promise.all([
    selectRows<Row>(
      ctx.db,
      sql`select a.id, a.at, a.actor_type, a.actor_id, a.actor_label, a.action, a.target_type, a.target_id, a.target_label, a.ip, a.detail
        from audit_log a where ${where} order by a.at desc, a.id desc limit ${q.limit} offset ${offsetOf(q)}`,
    ),
    selectRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from audit_log a where ${where}`),
  ]);
  return { entries: rows.map(entryView), page: q.page, limit: q.limit, total: n };
}

/** Deletes audit rows older than the retention period (365 days) before `now`, at most `limit` a call; the clean-up job calls it. */
export async function purgeAuditLog(db: DbOrTx, now: Date, limit = 20_000): Promise<number> {
  const cutoff = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  const [{ n }] = await selectRows<{ n: number }>(
    db,
    sql`with d as (delete from audit_log where id = any(array(select id from audit_log where at < ${cutoff}::timestamptz limit ${limit})) returning 1)
    select count(*)::int as n from d`,
  );
  return n;
}
