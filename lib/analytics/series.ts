import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { type CountScope, countBy, PERSON_REPLY, rate, ZERO } from "./counts";
import { machineCounts } from "./machine-counts";
import { type Period, utcDays } from "./period";
import { type CampaignStats, campaignStatsView, dayView, type Tracking } from "./views";

/** A campaign's counts for many campaigns at once (the campaign list): one statement grouped by campaign. */
export async function campaignStats(
  db: DbOrTx,
  campaigns: readonly ({ id: string; workspaceId: string } & Tracking)[],
): Promise<Map<string, CampaignStats>> {
  const out = new Map<string, CampaignStats>();
  if (campaigns.length === 0) return out;
  const byWorkspace = new Map<string, string[]>();
  for (const c of campaigns) byWorkspace.set(c.workspaceId, [...(byWorkspace.get(c.workspaceId) ?? []), c.id]);
  const [counted, machines] = await Promise.all([
    Promise.all([...byWorkspace].map(([workspaceId, campaignIds]) => countBy(db, "campaign", { workspaceId, campaignIds }))),
    Promise.all([...byWorkspace].map(([workspaceId, campaignIds]) => machineCounts(db, { workspaceId, campaignIds }, "campaign"))),
  ]);
  for (const c of campaigns) {
    const n = counted.find((m) => m.has(c.id))?.get(c.id) ?? ZERO;
    const m = machines.find((x) => x.has(c.id))?.get(c.id);
    out.set(c.id, campaignStatsView(n, c, m));
  }
  return out;
}

/**
 * One row per UTC day the period touches, oldest first, zero days included; each number dated as in
 * counts.ts (sends on the day they went out, opens and clicks on the day of the first one, replies on
 * the day they arrived), leads counted once per day.
 */
export async function dailySeries(db: DbOrTx, scope: CountScope & { period: Period }) {
  const by = await countBy(db, "day", scope);
  return utcDays(scope.period).map((d) => dayView(d, by.get(d) ?? ZERO));
}

/**
 * Per step and A/B variant (the `variants` of GET /campaigns/<id>/stats): sent, opened, clicked,
 * replied, bounced and their rates over the variant's sends. A variant's replies are the leads who
 * answered one of its emails with a person's reply.
 */
export async function variantStats(db: DbOrTx, campaignId: string) {
  const rows = await selectRows<{
    step_id: string;
    step_order: number;
    variant_group: string | null;
    subsequence_id: string | null;
    sent: number;
    opened: number;
    clicked: number;
    replied: number;
    bounced: number;
  }>(
    db,
    sql`
      select s.id as step_id, s.step_order, nullif(s.variant_group, '') as variant_group, s.subsequence_id,
        count(e.id) filter (where e.status in ('SENT', 'BOUNCED'))::int as sent,
        count(distinct e.lead_email) filter (where e.opened_at is not null)::int as opened,
        count(distinct e.lead_email) filter (where e.clicked_at is not null)::int as clicked,
        count(distinct e.lead_email)
          filter (where exists (select 1 from replies r where r.email_id = e.id and r.lead_id is not null and ${PERSON_REPLY}))::int
          as replied,
        count(e.id) filter (where e.status = 'BOUNCED')::int as bounced
      from campaign_steps s left join emails e on e.step_id = s.id
      where s.campaign_id = ${campaignId}
      group by s.id, s.step_order, s.variant_group, s.subsequence_id
      order by s.subsequence_id nulls first, s.step_order, s.variant_group`,
  );
  return rows.map((r) => ({
    stepId: r.step_id,
    stepOrder: r.step_order,
    variantGroup: r.variant_group,
    subsequenceId: r.subsequence_id,
    sent: r.sent,
    opened: r.opened,
    clicked: r.clicked,
    replied: r.replied,
    bounced: r.bounced,
    openedRate: rate(r.opened, r.sent),
    clickedRate: rate(r.clicked, r.sent),
    repliedRate: rate(r.replied, r.sent),
    bouncedRate: rate(r.bounced, r.sent),
  }));
}
