import { sql } from "drizzle-orm";
import { anyOf, selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";

/**
 * The lead_events rows: facts of a lead's history that no other table keeps once they happen. Each is
 * written by the same statement (or transaction) as the change itself, so a change and its record
 * never part.
 *
 * - `campaign_removed`: the lead left a campaign — taken out of it, or the campaign was deleted. `since`
 *   is when it had been added, so the timeline still shows `campaign_added` after the link is gone.
 * - `untagged`: a tag was taken off — removed from the lead, or the tag was deleted. `since` is when
 *   it had been attached.
 * - `branched`: a sequence branch taken after a step (written by the branches feature, with campaign,
 *   step and `detail: { rule, action }`). Nothing writes it yet; the timeline shows whatever is stored.
 */
export const STORED_KINDS = ["campaign_removed", "untagged", "branched"] as const;
export type StoredKind = (typeof STORED_KINDS)[number];

/** Why a link went: by hand (a route or the dashboard) or with the thing it linked to. */
export type RemovalReason = "removed" | "campaign_deleted" | "tag_deleted";

/**
 * Takes leads out of a campaign and records `campaign_removed` for each, in one statement. Returns the
 * ids of the leads that were in it.
 */
export async function removeLeadsFromCampaign(
  db: DbOrTx,
  campaignId: string,
  leadIds: string[],
  at: Date,
  reason: RemovalReason = "removed",
): Promise<string[]> {
  if (leadIds.length === 0) return [];
  const rows = await selectRows<{ lead_id: string }>(
    db,
    sql`with gone as (
        delete from campaign_leads where campaign_id = ${campaignId} and lead_id = ${anyOf([...new Set(leadIds)])}
        returning workspace_id, lead_id, added_at),
      recorded as (
        insert into lead_events (workspace_id, lead_id, kind, at, campaign_id, campaign_name, since, detail)
        select g.workspace_id, g.lead_id, 'campaign_removed', ${at.toISOString()}::timestamptz, c.id, c.name, g.added_at,
          jsonb_build_object('reason', ${reason}::text)
        from gone g join campaigns c on c.id = ${campaignId})
      select lead_id from gone`,
  );
  return rows.map((r) => r.lead_id);
}

/**
 * Records `campaign_removed` for every lead still in a campaign that is about to be deleted (call it in
 * the deleting transaction, before the delete: the campaign's lead rows go with it).
 */
export async function recordCampaignDeleted(db: DbOrTx, campaignId: string, at: Date): Promise<void> {
  await db.execute(sql`insert into lead_events (workspace_id, lead_id, kind, at, campaign_id, campaign_name, since, detail)
    select cl.workspace_id, cl.lead_id, 'campaign_removed', ${at.toISOString()}::timestamptz, c.id, c.name, cl.added_at,
      jsonb_build_object('reason', 'campaign_deleted')
    from campaign_leads cl join campaigns c on c.id = cl.campaign_id
    where cl.campaign_id = ${campaignId}`);
}

/**
 * Takes a tag off leads of a workspace and records `untagged` for each, in one statement. Returns the
 * ids of the leads that had it.
 */
export async function untagLeads(
  db: DbOrTx,
  workspaceId: string,
  tagId: string,
  leadIds: string[],
  at: Date,
  reason: RemovalReason = "removed",
): Promise<string[]> {
  if (leadIds.length === 0) return [];
  const rows = await selectRows<{ lead_id: string }>(
    db,
    sql`with gone as (
        delete from lead_tags
        where workspace_id = ${workspaceId} and tag_id = ${tagId} and lead_id = ${anyOf([...new Set(leadIds)])}
        returning workspace_id, lead_id, tag_id, created_at),
      recorded as (
        insert into lead_events (workspace_id, lead_id, kind, at, tag_id, tag_name, since, detail)
        select g.workspace_id, g.lead_id, 'untagged', ${at.toISOString()}::timestamptz, t.id, t.name, g.created_at,
          jsonb_build_object('reason', ${reason}::text)
        from gone g join tags t on t.id = g.tag_id)
      select lead_id from gone`,
  );
  return rows.map((r) => r.lead_id);
}

/**
 * Records `untagged` for every lead that has a tag about to be deleted (call it in the deleting
 * transaction, before the delete: the tag's links go with it).
 */
export async function recordTagDeleted(db: DbOrTx, workspaceId: string, tagId: string, at: Date): Promise<void> {
  await db.execute(sql`insert into lead_events (workspace_id, lead_id, kind, at, tag_id, tag_name, since, detail)
    select lt.workspace_id, lt.lead_id, 'untagged', ${at.toISOString()}::timestamptz, t.id, t.name, lt.created_at,
      jsonb_build_object('reason', 'tag_deleted')
    from lead_tags lt join tags t on t.id = lt.tag_id
    where lt.workspace_id = ${workspaceId} and lt.tag_id = ${tagId}`);
}
