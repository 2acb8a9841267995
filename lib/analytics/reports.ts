import { asc, eq } from "drizzle-orm";
import { campaigns } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { getBranding } from "./branding";
import { countBy, countTotal, ZERO } from "./counts";
import { type Cell, csvResponse, csvText } from "./csv";
import { workspaceFacts } from "./overview";
import { type Period, periodView, utcDays } from "./period";
import { campaignStats } from "./series";
import { machineCounts, NO_MACHINES } from "./machine-counts";
import { type CampaignStats, overviewView } from "./views";

const STAT_COLUMNS = [
  "sentCount",
  "leadsContacted",
  "openedCount",
  "openedRate",
  "clickedCount",
  "clickedRate",
  "repliedCount",
  "repliedRate",
  "positiveCount",
  "positiveRate",
  "bouncedCount",
  "bouncedRate",
  "opensTracked",
  "clicksTracked",
] as const satisfies readonly (keyof CampaignStats)[];

/** Every campaign of the workspace, oldest first, with its counts and rates (lifetime, as the campaign list). */
async function campaignsWithStats(ctx: Ctx) {
  const rows = await ctx.db.select().from(campaigns).where(eq(campaigns.workspaceId, ctx.workspaceId)).orderBy(asc(campaigns.seq));
  const stats = await campaignStats(ctx.db, rows);
  return rows.map((c) => ({ id: c.id, name: c.name, status: c.status, ...stats.get(c.id)! }));
}

/** GET /reports/campaigns.csv: one row per campaign — id, name, status and every count and rate. */
export async function campaignsCsv(ctx: Ctx): Promise<Response> {
  requireAccess(ctx, "read");
  const list = await campaignsWithStats(ctx);
  const rows = list.map((c) => [c.id, c.name, c.status, ...STAT_COLUMNS.map((k) => c[k])] as Cell[]);
  return csvResponse("campaigns.csv", csvText(rows, ["id", "name", "status", ...STAT_COLUMNS]));
}

/**
 * GET /reports/analytics.csv: the overview's numbers for each UTC day of the period, then a `total`
 * row equal to GET /analytics/overview of the same period (leads are counted once over the whole
 * period, so the total of a lead column can be below the sum of its days).
 */
export async function analyticsCsv(ctx: Ctx, period: Period): Promise<Response> {
  requireAccess(ctx, "read");
  const scope = { workspaceId: ctx.workspaceId, period };
  const [byDay, total, facts, machineDays, machineTotal] = await Promise.all([
    countBy(ctx.db, "day", scope),
    countTotal(ctx.db, scope),
    workspaceFacts(ctx),
    machineCounts(ctx.db, scope, "day"),
    machineCounts(ctx.db, scope, "all"),
  ]);
  const line = (label: string, c = ZERO) => {
    const o = overviewView(c, facts, (label === "total" ? machineTotal.get("all") : machineDays.get(label)) ?? NO_MACHINES);
    return [label, ...Object.values(o)] as Cell[];
  };
  const header = ["date", ...Object.keys(overviewView(ZERO, facts))];
  const rows = [...utcDays(period).map((d) => line(d, byDay.get(d))), line("total", total)];
  return csvResponse("analytics.csv", csvText(rows, header));
}

/** GET /reports/branded: the overview and the campaigns' numbers as JSON with the workspace's branding. */
export async function brandedReport(ctx: Ctx, period: Period) {
  requireAccess(ctx, "read");
  const [branding, total, facts, list, machines] = await Promise.all([
    getBranding(ctx),
    countTotal(ctx.db, { workspaceId: ctx.workspaceId, period }),
    workspaceFacts(ctx),
    campaignsWithStats(ctx),
    machineCounts(ctx.db, { workspaceId: ctx.workspaceId, period }, "all"),
  ]);
  return { branding, period: periodView(period), overview: overviewView(total, facts, machines.get("all")), campaigns: list };
}
