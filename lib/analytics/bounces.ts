import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { selectRows } from "../../db/bulk";
import { requireAccess, type Ctx } from "../ctx";
import { offsetOf, pageQuery } from "../paging";
import { type Period, periodShape, periodView, refinePeriod } from "./period";

/** The receiving server's code and reason are kept for bounces from this instant on. */
export const BOUNCE_DETAIL_SINCE = new Date("2026-10-02T00:00:00Z");

export const bouncesFilter = pageQuery({ defaultLimit: 50, maxLimit: 200 })
  .extend({
    ...periodShape(),
    kind: z.enum(["hard", "soft", "failed"]).optional(),
    mailboxId: z.string().max(200).optional(),
    domain: z.string().max(253).optional(),
  })
  .superRefine(refinePeriod());
export type BouncesFilter = z.infer<typeof bouncesFilter>;

type BounceRow = {
  id: string;
  status: string;
  bounce_type: string | null;
  at: Date | string;
  smtp_code: string | null;
  smtp_response: string | null;
  lead_email: string;
  mailbox_email: string;
  domain: string;
  campaign_id: string | null;
  campaign_name: string | null;
  step_order: number | null;
};

/** Which emails a kind lists: hard and soft bounces without a kind, refusals at send time for `failed`. */
function kindFilter(kind: BouncesFilter["kind"]): SQL {
  if (kind === "failed") return sql`e.status = 'FAILED'`;
  if (kind === "soft") return sql`e.status = 'BOUNCED' and e.bounce_type = 'SOFT'`;
  // A bounce recorded without a type is counted hard, as counts.ts does.
  if (kind === "hard") return sql`e.status = 'BOUNCED' and e.bounce_type is distinct from 'SOFT'`;
  return sql`e.status = 'BOUNCED'`;
}

/**
 * GET /analytics/bounces: the period's bounces of campaign email, newest first, dated like
 * the counts (when the email went out), with the SMTP code (or enhanced status) and the server's
 * message — null for bounces before 2 Oct 2026, when they were not recorded reliably.
 */
export async function bounceLog(ctx: Ctx, period: Period, q: BouncesFilter) {
  requireAccess(ctx, "read");
  const conds = [
    sql`e.workspace_id = ${ctx.workspaceId}`,
    sql`e.campaign_id is not null`,
    kindFilter(q.kind),
    sql`e.created_at >= ${period.from.toISOString()}::timestamptz and e.created_at < ${period.to.toISOString()}::timestamptz`,
  ];
  if (q.mailboxId) conds.push(sql`e.mailbox_id = ${q.mailboxId}`);
  if (q.domain) conds.push(sql`d.domain = ${q.domain.toLowerCase()}`);
  const where = sql.join(conds, sql` and `);
  const from = sql`emails e join mailboxes m on m.id = e.mailbox_id join domains d on d.id = m.domain_id`;
  const [rows, [{ total }]] = await Promise.all([
    selectRows<BounceRow>(
      ctx.db,
      sql`select e.id, e.status, e.bounce_type, coalesce(e.sent_at, e.created_at) as at, e.smtp_code, e.smtp_response,
          e.lead_email, m.email as mailbox_email, d.domain, e.campaign_id, c.name as campaign_name, e.step_order
        from ${from} left join campaigns c on c.id = e.campaign_id
        where ${where}
        order by e.created_at desc, e.id desc limit ${q.limit} offset ${offsetOf(q)}`,
    ),
    selectRows<{ total: number }>(ctx.db, sql`select count(*)::int as total from ${from} where ${where}`),
  ]);
  return { ...periodView(period), bounces: rows.map(bounceView), total, page: q.page, limit: q.limit };
}

function bounceView(r: BounceRow) {
  const at = new Date(r.at);
  const detailed = at.getTime() >= BOUNCE_DETAIL_SINCE.getTime();
  return {
    id: r.id,
    kind: r.status === "FAILED" ? ("failed" as const) : r.bounce_type === "SOFT" ? ("soft" as const) : ("hard" as const),
    at: at.toISOString(),
    code: detailed ? r.smtp_code : null,
    reason: detailed ? r.smtp_response : null,
    leadEmail: r.lead_email,
    mailboxEmail: r.mailbox_email,
    domain: r.domain,
    campaign: r.campaign_id ? { id: r.campaign_id, name: r.campaign_name } : null,
    stepOrder: r.step_order,
  };
}
