import { sql } from "drizzle-orm";
import { z } from "zod";
import { pageQuery, offsetOf } from "../api/paging";
import { requireAccess, type Ctx } from "../ctx";
import { getLeadViews } from "../leads/read-leads";
import { INTENTS } from "./schemas";

export const pipelineQuery = pageQuery({ defaultLimit: 200, maxLimit: 200 });
export const crmRepliesQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({ intent: z.enum(INTENTS).optional() });

/**
 * GET /crm/pipeline (decisions.md): one row per lead that replied — `{ lead, campaign, stage, intent,
 * lastReplyAt, replyCount }` — grouped by the sequence step they last replied to (stage 0 first).
 */
export async function pipeline(ctx: Ctx, q: z.infer<typeof pipelineQuery>) {
  requireAccess(ctx, "read");
  const rows = (await ctx.db.execute(sql`
    with latest as (
      select distinct on (r.lead_id) r.lead_id, r.intent, r.received_at, r.campaign_id, r.email_id
      from replies r where r.workspace_id = ${ctx.workspaceId} and r.lead_id is not null
      order by r.lead_id, r.received_at desc),
    counts as (select lead_id, count(*)::int as n from replies where workspace_id = ${ctx.workspaceId} and lead_id is not null group by lead_id)
    select l.lead_id, l.intent, l.received_at, l.campaign_id, c.name as campaign_name, e.step_order, counts.n as reply_count, count(*) over()::int as total
    from latest l join counts on counts.lead_id = l.lead_id
    left join emails e on e.id = l.email_id
    left join campaigns c on c.id = l.campaign_id
    order by e.step_order nulls last, l.received_at desc
    limit ${q.limit} offset ${offsetOf(q)}`)) as unknown as { lead_id: string; intent: string; received_at: string; campaign_id: string | null; campaign_name: string | null; step_order: number | null; reply_count: number; total: number }[];
  const leadsById = new Map((await getLeadViews(ctx.db, ctx.workspaceId, rows.map((r) => r.lead_id))).map((l) => [l.id, l]));
  return {
    total: rows[0]?.total ?? 0,
    rows: rows.map((r) => ({
      lead: leadsById.get(r.lead_id) ?? null,
      campaign: r.campaign_id ? { id: r.campaign_id, name: r.campaign_name } : null,
      stage: r.step_order === null ? { stepOrder: null, name: "No campaign step" } : { stepOrder: r.step_order, name: `Step ${r.step_order + 1}` },
      intent: r.intent,
      lastReplyAt: new Date(r.received_at).toISOString(),
      replyCount: r.reply_count,
    })),
  };
}
