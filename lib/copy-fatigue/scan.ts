import { and, asc, eq, sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import type { DbOrTx } from "../../db/client";
import { campaignSteps, copyFatigueScans, copyFatigueSteps } from "../../db/schema";
import { bodyHashOf, fatigueVerdict, nextStatus, type StepCounts, WINDOW } from "./rule";

type StepRow = typeof campaignSteps.$inferSelect;
export type FatigueRow = typeof copyFatigueSteps.$inferSelect;

/**
 * One step's sends of its current body (since `since`, or all when null): SENT or BOUNCED campaign
 * emails ordered by send time, with a person's reply (not an automatic one) to each send counted in the
 * first and the latest WINDOW — the same "replied" the campaign stats count.
 */
export async function stepCounts(db: DbOrTx, stepId: string, since: Date | null): Promise<StepCounts> {
  const [row] = await selectRows<{ sends: number; leads: number; first_replies: number; recent_replies: number }>(
    db,
    sql`
      with s as (
        select e.lead_email,
          row_number() over (order by coalesce(e.sent_at, e.created_at), e.id) as rn,
          count(*) over () as n,
          exists (select 1 from replies r where r.email_id = e.id and r.lead_id is not null and not r.is_auto_reply) as replied
        from emails e
        where e.step_id = ${stepId} and e.status in ('SENT', 'BOUNCED')
          and (${since?.toISOString() ?? null}::timestamptz is null or coalesce(e.sent_at, e.created_at) >= ${since?.toISOString() ?? null}::timestamptz)
      )
      select count(*)::int as sends, count(distinct lower(lead_email))::int as leads,
        count(*) filter (where rn <= ${WINDOW} and replied)::int as first_replies,
        count(*) filter (where rn > n - ${WINDOW} and replied)::int as recent_replies
      from s`,
  );
  return { sends: row.sends, leads: row.leads, firstReplies: row.first_replies, recentReplies: row.recent_replies };
}

/** Scans one step: its verdict over the current body, written over the previous one. */
async function scanStep(db: DbOrTx, step: StepRow, prev: FatigueRow | undefined, now: Date): Promise<FatigueRow> {
  const hash = bodyHashOf(step);
  // A changed body counts from when the step was last written (that edit changed it); a first scan counts every send.
  const bodySince = prev ? (prev.bodyHash === hash ? prev.bodySince : step.updatedAt) : null;
  const counts = await stepCounts(db, step.id, bodySince);
  const v = fatigueVerdict(counts);
  const { status, dismissedReasons } = nextStatus(prev, hash, v.reasons);
  const flagged = status === "FATIGUED" && (prev?.status !== "FATIGUED" || prev.bodyHash !== hash);
  const values = {
    stepId: step.id,
    workspaceId: step.workspaceId,
    campaignId: step.campaignId,
    status,
    sends: counts.sends,
    leads: counts.leads,
    firstRate: v.firstRate,
    recentRate: v.recentRate,
    reasons: v.reasons,
    dismissedReasons,
    bodyHash: hash,
    bodySince,
    flaggedAt: flagged ? now : status === "OK" ? null : (prev?.flaggedAt ?? now),
    dismissedAt: status === "DISMISSED" ? (prev?.dismissedAt ?? now) : null,
    scannedAt: now,
  };
  const [row] = await db
    .insert(copyFatigueSteps)
    .values(values)
    .onConflictDoUpdate({ target: copyFatigueSteps.stepId, set: values })
    .returning();
  return row;
}

/** Scans every step (every variant) of a campaign and records when; returns the rows in sequence order. */
export async function scanCampaign(db: DbOrTx, workspaceId: string, campaignId: string, now: Date): Promise<FatigueRow[]> {
  const steps = await db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.campaignId, campaignId), eq(campaignSteps.workspaceId, workspaceId)))
    .orderBy(asc(campaignSteps.stepOrder), asc(campaignSteps.variantGroup));
  const prev = new Map(
    (await db.select().from(copyFatigueSteps).where(eq(copyFatigueSteps.campaignId, campaignId))).map((r) => [r.stepId, r]),
  );
  const out: FatigueRow[] = [];
  for (const step of steps) out.push(await scanStep(db, step, prev.get(step.id), now));
  const scan = { campaignId, workspaceId, lastScanAt: now, leaseUntil: null };
  await db.insert(copyFatigueScans).values(scan).onConflictDoUpdate({ target: copyFatigueScans.campaignId, set: scan });
  return out;
}
