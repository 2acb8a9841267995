import { selectRows } from "../../db/bulk";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { pageQuery, offsetOf } from "../paging";
import { requireAccess, type Ctx } from "../ctx";
import { getLeadViews } from "../leads/read-leads";
import { INTENTS } from "./schemas";

export const pipelineQuery = pageQuery({ defaultLimit: 200, maxLimit: 200 });
export const crmRepliesQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({ intent: z.enum(INTENTS).optional() });

type PipelineRow = {
  lead_id: string | null;
  intent: string;
  received_at: string;
  campaign_id: string | null;
  campaign_name: string | null;
  step_order: number | null;
  reply_count: number;
  total: number;
};

/**
 * GET /crm/pipeline: one row per lead that replied — `{ lead, campaign, stage, intent,
 * lastReplyAt, replyCount }` — grouped by the sequence step they last replied to (stage 0 first).
 */
export async function pipeline(ctx: Ctx, q: z.infer<typeof pipelineQuery>) {
  requireAccess(ctx, "read");
  // The total counts every lead that replied, not the page's rows: a page past the end still has it.
  const rows = await selectRows<PipelineRow>(
    ctx.db,
    sql`
    with latest as (
      select distinct on (r.lead_id) r.lead_id, r.intent, r.received_at, r.campaign_id, r.email_id
      from replies r where r.workspace_id = ${ctx.workspaceId} and r.lead_id is not null
      order by r.lead_id, r.received_at desc),
    counts as (select lead_id, count(*)::int as n from replies where workspace_id = ${ctx.workspaceId} and lead_id is not null group by lead_id),
    page as (
      select l.lead_id, l.intent, l.received_at, l.campaign_id, c.name as campaign_name, e.step_order, counts.n as reply_count
      from latest l join counts on counts.lead_id = l.lead_id
      left join emails e on e.id = l.email_id
      left join campaigns c on c.id = l.campaign_id
      order by e.step_order nulls last, l.received_at desc, l.lead_id
      limit ${q.limit} offset ${offsetOf(q)})
    select p.*, t.total from (select count(*)::int as total from latest) t left join page p on true
    order by p.step_order nulls last, p.received_at desc, p.lead_id`,
  );
  const total = rows[0]?.total ?? 0;
  const found = rows.filter((r): r is PipelineRow & { lead_id: string } => r.lead_id !== null); // no row of the page: one row with the total alone
  const leadsById = new Map(
    (
      await getLeadViews(
        ctx.db,
        ctx.workspaceId,
        found.map((r) => r.lead_id),
      )
    ).map((l) => [l.id, l]),
  );
  return {
    total,
    rows: found.map((r) => ({
      lead: leadsById.get(r.lead_id) ?? null,
      campaign: r.campaign_id ? { id: r.campaign_id, name: r.campaign_name } : null,
      stage:
        r.step_order === null
          ? { stepOrder: null, name: "No campaign step" }
          : { stepOrder: r.step_order, name: `Step ${r.step_order + 1}` },
      intent: r.intent,
      lastReplyAt: new Date(r.received_at).toISOString(),
      replyCount: r.reply_count,
    })),
  };
}
