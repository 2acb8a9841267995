import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows } from "../../db/bulk";
import { offsetOf, pageQuery } from "../paging";
import { requireAccess, type Ctx } from "../ctx";
import { findCampaign } from "./campaigns";
import { countBy } from "../analytics/counts";
import { lastUtcDays, utcDays } from "../analytics/period";
import { branchStats, subsequenceStats } from "../analytics/sequences";
import { campaignStats, dailySeries, variantStats } from "../analytics/series";

export const daysQuery = z.object({ days: z.coerce.number().int().min(1).max(90, "days can be at most 90").default(30) });

/** GET /campaigns/<id>/stats: the campaign's counts and rates plus per step × variant results. */
export async function getCampaignStats(ctx: Ctx, id: string) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, id);
  const stats = (await campaignStats(ctx.db, [c])).get(c.id)!;
  const [variants, subsequences, branches] = await Promise.all([
    variantStats(ctx.db, c.id),
    subsequenceStats(ctx.db, c.id),
    branchStats(ctx.db, c.id),
  ]);
  return { campaignId: c.id, ...stats, variants, subsequences, branches };
}

export async function getCampaignTimeseries(ctx: Ctx, id: string, days: number) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, id);
  return {
    campaignId: c.id,
    days,
    series: await dailySeries(ctx.db, { workspaceId: ctx.workspaceId, campaignIds: [c.id], period: lastUtcDays(ctx.clock.now(), days) }),
  };
}

/** GET /campaigns/sent-trends: `{ dates, trends: { <campaignId>: number[] } }`, campaigns without a send left out. */
export async function sentTrends(ctx: Ctx, days: number) {
  requireAccess(ctx, "read");
  const period = lastUtcDays(ctx.clock.now(), days);
  const dates = utcDays(period);
  const counted = await countBy(ctx.db, "campaignDay", { workspaceId: ctx.workspaceId, period });
  const trends: Record<string, number[]> = {};
  for (const [key, n] of counted) {
    const [campaignId, date] = key.split(" ");
    const i = dates.indexOf(date);
    if (i < 0 || n.sent === 0) continue;
    (trends[campaignId] ??= Array(days).fill(0))[i] += n.sent;
  }
  return { dates, trends };
}

export const activityQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  status: z.enum(["SENDING", "SENT", "BOUNCED", "FAILED"]).optional(),
});

/** A row of the activity statement (timestamps as the driver returns them from a raw statement). */
type ActivityRow = {
  id: string;
  lead_id: string | null;
  lead_email: string;
  step_order: number | null;
  variant_group: string | null;
  mailbox_email: string;
  subject: string;
  status: string;
  bounce_type: string | null;
  smtp_code: string | null;
  smtp_response: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  opened_at: Date | string | null;
  clicked_at: Date | string | null;
};

/**
 * GET /campaigns/<id>/activity: every email of the campaign, newest first, with opens, clicks and the
 * server's reason for bounces and refusals.
 */
export async function campaignActivity(ctx: Ctx, id: string, q: z.infer<typeof activityQuery>) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, id);
  const filter = sql`e.campaign_id = ${c.id} ${q.status ? sql`and e.status = ${q.status}` : sql``}`;
  const rows = await selectRows<ActivityRow>(
    ctx.db,
    sql`
      select e.id, e.lead_id, e.lead_email, e.step_order, e.variant_group, m.email as mailbox_email, e.subject, e.status,
        e.bounce_type, e.smtp_code, e.smtp_response, e.created_at, e.sent_at, e.opened_at, e.clicked_at
      from emails e join mailboxes m on m.id = e.mailbox_id
      where ${filter}
      order by e.created_at desc, e.id desc limit ${q.limit} offset ${offsetOf(q)}`,
  );
  // Counted apart: the total of every page, also when this page is past the end.
  const [{ total }] = await selectRows<{ total: number }>(ctx.db, sql`select count(*)::int as total from emails e where ${filter}`);
  const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : null);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      leadId: r.lead_id,
      leadEmail: r.lead_email,
      stepOrder: r.step_order,
      variantGroup: r.variant_group,
      mailboxEmail: r.mailbox_email,
      subject: r.subject,
      status: r.status,
      bounceType: r.bounce_type,
      smtpCode: r.smtp_code,
      smtpResponse: r.smtp_response,
      createdAt: iso(r.created_at),
      sentAt: iso(r.sent_at),
      openedAt: iso(r.opened_at),
      clickedAt: iso(r.clicked_at),
    })),
    total,
  };
}
