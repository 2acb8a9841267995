import { and, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { anyOf, recordset, selectRows, valuesOf } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { campaignLeads, campaignMailboxes, mailboxes } from "../../db/schema";
import { canSend, type PoolMailbox } from "./eligibility";
import { type SpamClasses, spamClasses } from "./placement-spam";

export type AssignResult = "assigned" | "no_eligible_mailbox" | "seg_blocked";

/**
 * Picks the pool mailbox with the fewest leads of this campaign (balanced by load), honouring ESP
 * matching: PREFER takes a mailbox of the lead's provider class when one exists, STRICT
 * only such a mailbox (`seg_blocked` when the pool has none). A lead of class UNKNOWN matches any.
 * Under PREFER a mailbox whose latest placement test landed in spam for the lead's class is passed
 * over while another can take the lead (placement-spam.ts). `load` is updated in place so a batch
 * stays balanced.
 */
export function pickMailbox(
  eligible: PoolMailbox[],
  load: Map<string, number>,
  espMatching: "OFF" | "PREFER" | "STRICT",
  leadEspClass: string,
  spam?: SpamClasses,
): { result: AssignResult; mailboxId: string | null } {
  if (eligible.length === 0) return { result: "no_eligible_mailbox", mailboxId: null };
  let candidates = eligible;
  if (espMatching === "PREFER" && spam?.size && leadEspClass !== "UNKNOWN") {
    const inbox = eligible.filter((m) => !spam.get(m.id)?.has(leadEspClass));
    if (inbox.length) candidates = inbox;
  }
  if (espMatching !== "OFF" && leadEspClass !== "UNKNOWN") {
    const same = candidates.filter((m) => m.espClass === leadEspClass);
    if (same.length) candidates = same;
    else if (espMatching === "STRICT") return { result: "seg_blocked", mailboxId: null };
  }
  return leastLoaded(candidates, load);
}

function leastLoaded(candidates: PoolMailbox[], load: Map<string, number>): { result: AssignResult; mailboxId: string | null } {
  let best = candidates[0];
  for (const m of candidates) if ((load.get(m.id) ?? 0) < (load.get(best.id) ?? 0)) best = m;
  load.set(best.id, (load.get(best.id) ?? 0) + 1);
  return { result: "assigned", mailboxId: best.id };
}

export interface EspRematchResult {
  /** Campaign leads moved to another pool mailbox. */
  moved: number;
  /** Campaign leads taken off their mailbox: STRICT and no eligible pool mailbox of the lead's class. */
  unassigned: number;
}

/**
 * Re-runs ESP matching for leads whose class the lead-esp-class job has just set (lib/campaigns/esp-class.ts):
 * a lead added while UNKNOWN was assigned as if matching were off. Takes their campaign leads that are
 * in a PREFER or STRICT campaign, ACTIVE, never emailed by it, and on a mailbox of another class, and
 * picks again exactly as `reassign { leadIds }` does (pickMailbox over the pool mailboxes that can send,
 * balanced by the campaign's load, the lead's own mailbox not counted): a mailbox of the lead's class;
 * under STRICT with none, unassigned (seg_blocked, as when adding); under PREFER with none, the least
 * loaded pool mailbox. A pool where no mailbox can send leaves the lead where it is (not an ESP matter).
 * Set-based: three reads, a lock of the campaign rows and one update for all the leads, whatever the
 * number of campaigns (in one transaction). The update only moves a row still on the mailbox it was
 * read on, ACTIVE and not emailed.
 */
export async function rematchEspClass(db: DbOrTx, leadIds: string[]): Promise<EspRematchResult> {
  if (leadIds.length === 0) return { moved: 0, unassigned: 0 };
  return db.transaction((tx) =>
    rematchIn(
      tx,
      sql`
      select cl.campaign_id, cl.lead_id, cl.mailbox_id, l.esp_class, c.esp_matching
      from ${valuesOf(leadIds)} as x(id)
      join leads l on l.id = x.id
      join campaign_leads cl on cl.lead_id = l.id
      join campaigns c on c.id = cl.campaign_id
      join mailboxes m on m.id = cl.mailbox_id
      where c.esp_matching <> 'OFF' and cl.status = 'ACTIVE' and cl.first_emailed_at is null
        and l.esp_class <> 'UNKNOWN' and m.esp_class <> l.esp_class::text
      order by cl.campaign_id, cl.seq`,
    ),
  );
}

/**
 * Placement feeds sending: once a mailbox's latest placement test lands in spam for some provider
 * classes, its PREFER campaigns' leads of those classes that it has not emailed yet move to a pool
 * mailbox that does not (picked as reassign does; none such: they stay). Run when a test completes.
 */
export async function rematchForPlacement(db: DbOrTx, mailboxId: string): Promise<EspRematchResult> {
  return db.transaction(async (tx) => {
    const classes = [...((await spamClasses(tx, [mailboxId])).get(mailboxId) ?? [])];
    if (classes.length === 0) return { moved: 0, unassigned: 0 };
    return rematchIn(
      tx,
      sql`
      select cl.campaign_id, cl.lead_id, cl.mailbox_id, l.esp_class, c.esp_matching
      from campaign_leads cl
      join leads l on l.id = cl.lead_id
      join campaigns c on c.id = cl.campaign_id
      where cl.mailbox_id = ${mailboxId} and c.esp_matching = 'PREFER' and cl.status = 'ACTIVE'
        and cl.first_emailed_at is null and l.esp_class::text = ${anyOf(classes)}
      order by cl.campaign_id, cl.seq`,
    );
  });
}

type RematchTarget = { campaign_id: string; lead_id: string; mailbox_id: string; esp_class: string; esp_matching: "PREFER" | "STRICT" };

async function rematchIn(db: DbOrTx, targetsQuery: SQL): Promise<EspRematchResult> {
  const targets = await selectRows<RematchTarget>(db, targetsQuery);
  if (targets.length === 0) return { moved: 0, unassigned: 0 };
  const campaignIds = [...new Set(targets.map((t) => t.campaign_id))].sort();
  // The campaign rows are locked as adding and reassigning lock them, so their loads stay balanced.
  await db.execute(sql`select id from campaigns where id = ${anyOf(campaignIds)} order by id for update`);
  // Pools in poolMailboxes' order (mailboxes.seq), so ties break as when adding.
  const poolRows = await db
    .select({ campaignId: campaignMailboxes.campaignId, m: mailboxes })
    .from(campaignMailboxes)
    .innerJoin(mailboxes, eq(mailboxes.id, campaignMailboxes.mailboxId))
    .where(inArray(campaignMailboxes.campaignId, campaignIds))
    .orderBy(mailboxes.seq);
  // loadByMailbox (campaign-leads.ts) for all the campaigns at once.
  const loadRows = await db
    .select({ campaignId: campaignLeads.campaignId, mailboxId: campaignLeads.mailboxId, n: sql<number>`count(*)::int` })
    .from(campaignLeads)
    .where(and(inArray(campaignLeads.campaignId, campaignIds), isNotNull(campaignLeads.mailboxId)))
    .groupBy(campaignLeads.campaignId, campaignLeads.mailboxId);
  const eligible = new Map<string, PoolMailbox[]>(campaignIds.map((id) => [id, []]));
  for (const r of poolRows) if (canSend(r.m)) eligible.get(r.campaignId)!.push(r.m);
  const loads = new Map<string, Map<string, number>>(campaignIds.map((id) => [id, new Map()]));
  const spam = await spamClasses(
    db,
    poolRows.map((r) => r.m.id),
  );
  for (const r of loadRows) loads.get(r.campaignId)!.set(r.mailboxId!, r.n);

  const changes: { campaign_id: string; lead_id: string; old: string; new: string | null }[] = [];
  for (const t of targets) {
    const pool = eligible.get(t.campaign_id)!;
    if (pool.length === 0) continue;
    const load = loads.get(t.campaign_id)!;
    load.set(t.mailbox_id, Math.max(0, (load.get(t.mailbox_id) ?? 1) - 1));
    const pick = pickMailbox(pool, load, t.esp_matching, t.esp_class, spam);
    if (pick.mailboxId === t.mailbox_id) continue;
    changes.push({ campaign_id: t.campaign_id, lead_id: t.lead_id, old: t.mailbox_id, new: pick.mailboxId });
  }
  if (changes.length === 0) return { moved: 0, unassigned: 0 };
  const v = recordset(
    "v",
    { campaign_id: campaignLeads.campaignId, lead_id: campaignLeads.leadId, old: "text", new: campaignLeads.mailboxId },
    changes,
  );
  const done = await selectRows<{ mailbox_id: string | null }>(
    db,
    sql`
      update campaign_leads cl set mailbox_id = ${v.col("new")}
      from ${v.from}
      where cl.campaign_id = ${v.col("campaign_id")} and cl.lead_id = ${v.col("lead_id")} and cl.mailbox_id = ${v.col("old")}
        and cl.status = 'ACTIVE' and cl.first_emailed_at is null
      returning cl.mailbox_id`,
  );
  const unassigned = done.filter((r) => r.mailbox_id === null).length;
  return { moved: done.length - unassigned, unassigned };
}
