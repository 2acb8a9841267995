import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { requireAccess, type Ctx } from "../ctx";
import { countTotal } from "./counts";
import { machineCounts } from "./machine-counts";
import { workspaceLeadCount } from "./rollups";
import { type Period, periodView } from "./period";
import { dailySeries } from "./series";
import { overviewView } from "./views";

/**
 * The workspace's standing facts beside the period's counts: its leads (the trigger-kept count, not a
 * scan of them), its sending mailboxes (seeds receive probes and warmup and never send campaign email,
 * so they are not senders) and whether any campaign tracks opens or clicks (when none does,
 * those numbers mean nothing).
 */
export async function workspaceFacts(ctx: Ctx) {
  const [leads, [f]] = await Promise.all([
    workspaceLeadCount(ctx.db, ctx.workspaceId),
    selectRows<{ mailboxes: number; opens: boolean; clicks: boolean }>(
      ctx.db,
      sql`select
      (select count(*) from mailboxes where workspace_id = ${ctx.workspaceId} and not is_seed)::int as mailboxes,
      exists (select 1 from campaigns where workspace_id = ${ctx.workspaceId} and track_opens) as opens,
      exists (select 1 from campaigns where workspace_id = ${ctx.workspaceId} and track_clicks) as clicks`,
    ),
  ]);
  return { totalLeads: leads, totalMailboxes: f.mailboxes, trackOpens: f.opens, trackClicks: f.clicks };
}

/** GET /analytics/overview: the period's totals, counted as everywhere else. */
export async function analyticsOverview(ctx: Ctx, period: Period) {
  requireAccess(ctx, "read");
  const [counts, facts, machines] = await Promise.all([
    countTotal(ctx.db, { workspaceId: ctx.workspaceId, period }),
    workspaceFacts(ctx),
    machineCounts(ctx.db, { workspaceId: ctx.workspaceId, period }, "all"),
  ]);
  return { ...periodView(period), ...overviewView(counts, facts, machines.get("all")) };
}

/** GET /analytics/timeseries: workspace totals per UTC day. */
export async function analyticsTimeseries(ctx: Ctx, period: Period) {
  requireAccess(ctx, "read");
  return { ...periodView(period), days: await dailySeries(ctx.db, { workspaceId: ctx.workspaceId, period }) };
}
