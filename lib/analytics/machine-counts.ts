import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import type { Period } from "./period";

/**
 * Leads reached only by machines: their email was fetched by a privacy prefetch or a security scanner
 * (machine_opened_at / machine_clicked_at) and never by a person (no counted open / click). Shown beside
 * the counted numbers, never added to them; when a workspace counts every hit these are 0 (a machine's
 * hit is then the counted one). Dated by the first machine hit; each lead once per key.
 */
export interface MachineCounts {
  machineOpened: number;
  machineClicked: number;
}

export const NO_MACHINES: MachineCounts = { machineOpened: 0, machineClicked: 0 };

type Row = { k: string; mo: number; mc: number };

type By = "campaign" | "all" | "day";

/** The group key: the campaign, "all", or the UTC day (YYYY-MM-DD) of the metric's first machine hit. */
const keyOf = (by: By, col: string) =>
  by === "campaign" ? sql`e.campaign_id` : by === "all" ? sql`'all'` : sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD')`);

/** Per key of `by`, within the period when one is given: one part per dating column, as the counted numbers. */
export async function machineCounts(
  db: DbOrTx,
  scope: { workspaceId: string; campaignIds?: readonly string[]; period?: Period },
  by: By,
): Promise<Map<string, MachineCounts>> {
  if (scope.campaignIds?.length === 0) return new Map();
  const p = scope.period;
  const within = (col: string) =>
    p ? sql`${sql.raw(col)} >= ${p.from.toISOString()}::timestamptz and ${sql.raw(col)} < ${p.to.toISOString()}::timestamptz` : sql`true`;
  const where = sql`e.workspace_id = ${scope.workspaceId} and e.campaign_id is not null
      and (e.machine_opened_at is not null or e.machine_clicked_at is not null)
      ${scope.campaignIds ? sql`and e.campaign_id = ${anyOf(scope.campaignIds)}` : sql``}`;
  const rows = await selectRows<Row>(
    db,
    sql`select k, sum(mo)::int as mo, sum(mc)::int as mc from (
      select ${keyOf(by, "e.machine_opened_at")} as k, count(distinct e.lead_email) as mo, 0 as mc from emails e
      where ${where} and e.machine_opened_at is not null and e.opened_at is null and ${within("e.machine_opened_at")} group by 1
      union all
      select ${keyOf(by, "e.machine_clicked_at")}, 0, count(distinct e.lead_email) from emails e
      where ${where} and e.machine_clicked_at is not null and e.clicked_at is null and ${within("e.machine_clicked_at")} group by 1
    ) parts group by k`,
  );
  return new Map(rows.map((r) => [r.k, { machineOpened: r.mo, machineClicked: r.mc }]));
}
