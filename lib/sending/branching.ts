import { sql } from "drizzle-orm";
import { anyOf, recordset, selectRows } from "../../db/bulk";
import type { DbOrTx, Tx } from "../../db/client";
import { campaignSteps, campaigns } from "../../db/schema";
import type { Clock } from "../clock";
import { newEventId } from "../ids";
import { crashPoint } from "../jobs/crash-point";
import { type BranchCampaign, type BranchEffect, type BranchLead, branchEffect } from "./branch-effect";
import { type BranchRule, decideAtFor, decideBranch, describeRule, type ReplyIntent } from "./branches";
import { delayOf } from "./engine/decide";
import type { Step } from "./engine/types";

/**
 * The branch job. A lead whose sent step has branch rules waits (branch_step_id set, the scheduler
 * leaves it alone) until its rules can be answered: when a reply arrives (ingest makes it due at once)
 * or when silence becomes final. Then its facts — the first reply since the step and its intent, people's
 * opens and clicks of the step's email — go through decideBranch (pure), and the effect is applied in one
 * transaction with a lead_branches row whose key (campaign, lead, step) makes it happen at most once:
 * a crash before the commit applies nothing, a second worker's insert finds the row and does nothing.
 */

export interface BranchReport {
  decided: number;
  /** Looked at, but some rule cannot be answered yet: due again later. */
  pending: number;
}

interface PendingRow extends Record<string, unknown> {
  workspaceId: string;
  campaignId: string;
  leadId: string;
  stepId: string;
  sentAt: string | null;
  emailId: string | null;
  timezone: string | null;
  customFields: Record<string, string> | null;
}

/** Leads waiting for a branch decision that is due now (a reply came, or silence became final). */
async function duePending(db: DbOrTx, now: Date, limit: number): Promise<PendingRow[]> {
  return selectRows<PendingRow>(
    db,
    sql`select cl.workspace_id as "workspaceId", cl.campaign_id as "campaignId", cl.lead_id as "leadId",
          cl.branch_step_id as "stepId", e.created_at as "sentAt", e.id as "emailId",
          l.timezone, l.custom_fields as "customFields"
        from campaign_leads cl
        join leads l on l.id = cl.lead_id
        left join lateral (select id, created_at from emails
          where emails.lead_id = cl.lead_id and emails.campaign_id = cl.campaign_id and emails.step_id = cl.branch_step_id
          order by created_at desc limit 1) e on true
        where cl.branch_step_id is not null and cl.status = 'ACTIVE'
          and coalesce(cl.next_send_at, '-infinity') <= ${now.toISOString()}::timestamptz
        order by cl.next_send_at nulls first
        limit ${limit}`,
  );
}

type Reply = { leadId: string; campaignId: string; intent: ReplyIntent; at: string; returnDate: string | null };

/**
 * Each pending lead's first reply to its step, and whether a person opened or clicked that email. A reply
 * threaded to the step's email counts whatever its Date header says (a lead's clock may run slow); another
 * counts when received since the step was sent, read to the second because a Date header has whole seconds.
 */
async function factsOf(db: DbOrTx, rows: PendingRow[]) {
  const v = recordset(
    "v",
    { campaignId: "text", leadId: "text", sentAt: "timestamptz", emailId: "text" },
    rows.map((r) => ({ campaignId: r.campaignId, leadId: r.leadId, sentAt: r.sentAt, emailId: r.emailId })),
  );
  const [replies, hits] = await Promise.all([
    selectRows<Reply>(
      db,
      sql`select distinct on (r.lead_id, r.campaign_id) r.lead_id as "leadId", r.campaign_id as "campaignId", r.intent,
            r.received_at as "at", r.return_date as "returnDate"
          from ${v.from} join replies r on r.lead_id = ${v.col("leadId")} and r.campaign_id = ${v.col("campaignId")}
            and (r.email_id = ${v.col("emailId")} or r.received_at >= coalesce(date_trunc('second', ${v.col("sentAt")}), '-infinity'))
          order by r.lead_id, r.campaign_id, r.received_at`,
    ),
    selectRows<{ emailId: string; kind: "OPEN" | "CLICK" }>(
      db,
      sql`select distinct ev.email_id as "emailId", ev.kind from ${v.from} join email_events ev on ev.email_id = ${v.col("emailId")}
          where ev.kind in ('OPEN', 'CLICK')`,
    ),
  ]);
  const replyOf = new Map(replies.map((r) => [`${r.campaignId}|${r.leadId}`, r]));
  const hitsOf = new Map<string, Set<string>>();
  for (const h of hits) hitsOf.set(h.emailId, (hitsOf.get(h.emailId) ?? new Set()).add(h.kind));
  return { replyOf, hitsOf };
}

/** The campaigns and steps of the pending leads. */
async function campaignsOf(db: DbOrTx, ids: string[]) {
  const [cs, ss] = await Promise.all([
    db
      .select()
      .from(campaigns)
      .where(sql`${campaigns.id} = ${anyOf(ids)}`),
    db
      .select()
      .from(campaignSteps)
      .where(sql`${campaignSteps.campaignId} = ${anyOf(ids)}`),
  ]);
  return { campaigns: new Map(cs.map((c) => [c.id, c])), steps: ss };
}

/** Decides every due pending lead (up to `limit`); returns how many were decided and how many must wait. */
export async function decideBranches(db: DbOrTx, clock: Clock, limit = 500): Promise<BranchReport> {
  const now = clock.now();
  const rows = await duePending(db, now, limit);
  if (rows.length === 0) return { decided: 0, pending: 0 };
  const [{ replyOf, hitsOf }, { campaigns: cs, steps }] = await Promise.all([
    factsOf(db, rows),
    campaignsOf(db, [...new Set(rows.map((r) => r.campaignId))]),
  ]);
  const report: BranchReport = { decided: 0, pending: 0 };
  for (const r of rows) {
    const c = cs.get(r.campaignId);
    const step = steps.find((s) => s.id === r.stepId);
    if (!c || !step) continue;
    const reply = replyOf.get(`${r.campaignId}|${r.leadId}`);
    const hit = r.emailId ? hitsOf.get(r.emailId) : undefined;
    const sentAt = r.sentAt ? new Date(r.sentAt) : now;
    const lead: BranchLead = {
      step,
      sentAt,
      steps: steps.filter((s) => s.campaignId === c.id),
      reply: reply ? { intent: reply.intent, at: new Date(reply.at), returnDate: reply.returnDate } : null,
      lead: { timezone: r.timezone, customFields: r.customFields },
    };
    const outcome = await decideOne(db, r, lead, c, { opened: !!hit?.has("OPEN"), clicked: !!hit?.has("CLICK") }, now);
    report[outcome]++;
  }
  return report;
}

/** One lead: wait for its rules, or apply what they decide. */
async function decideOne(
  db: DbOrTx,
  r: PendingRow,
  l: BranchLead,
  c: BranchCampaign & { id: string; name: string },
  hits: { opened: boolean; clicked: boolean },
  now: Date,
): Promise<"decided" | "pending"> {
  const rules = l.step.branches as BranchRule[];
  const next = l.steps.filter((s) => s.subsequenceId === l.step.subsequenceId && s.stepOrder === l.step.stepOrder + 1);
  const nextDelay = next.length ? delayOf(next) : null;
  const decideAt = decideAtFor(l.sentAt, nextDelay, rules);
  const d = decideBranch(rules, { now, sentAt: l.sentAt, decideAt, reply: l.reply, ...hits });
  if (d.kind === "pending") {
    await db.execute(sql`update campaign_leads set next_send_at = ${d.until.toISOString()}::timestamptz
      where campaign_id = ${r.campaignId} and lead_id = ${r.leadId} and branch_step_id = ${r.stepId} and status = 'ACTIVE'`);
    return "pending";
  }
  const effect = branchEffect(d, l, c, now);
  const rule = d.kind === "matched" ? describeRule(d.rule.when) : l.reply ? "replied (no rule matched)" : "no rule matched";
  crashPoint("branch:after-decide");
  await db.transaction((tx) => applyEffect(tx, r, l.step, c, effect, rule, now));
  crashPoint("branch:after-effect");
  return "decided";
}

/** The decision's row, its effect on the campaign lead, its tag or assignment, its timeline entry and its event: together or not at all. */
async function applyEffect(tx: Tx, r: PendingRow, step: Step, c: { id: string; name: string }, e: BranchEffect, rule: string, now: Date) {
  const at = now.toISOString();
  const [first] = await selectRows<{ ok: boolean }>(
    tx,
    sql`insert into lead_branches (workspace_id, campaign_id, lead_id, step_id, rule_index, rule, action, decided_at)
        values (${r.workspaceId}, ${r.campaignId}, ${r.leadId}, ${r.stepId}, ${e.ruleIndex}, ${rule}, ${JSON.stringify(e.action)}::jsonb, ${at}::timestamptz)
        on conflict do nothing returning true as ok`,
  );
  if (!first) {
    // Decided before. A second worker finds the lead moved on already (nothing to do); a lead still waiting
    // on this step came back to it through a loop of subsequences, and a step's branch is taken once: it ends.
    await tx.execute(sql`update campaign_leads set status = 'COMPLETED', next_send_at = null, branch_step_id = null
      where campaign_id = ${r.campaignId} and lead_id = ${r.leadId} and branch_step_id = ${r.stepId}`);
    return;
  }
  await tx.execute(sql`update campaign_leads set status = ${e.status}, subsequence_id = ${e.subsequenceId},
      next_step_order = ${e.nextStepOrder}, next_send_at = ${e.nextSendAt?.toISOString() ?? null}::timestamptz,
      paused_until = ${e.pausedUntil?.toISOString() ?? null}::timestamptz, pause_reason = ${e.pauseReason}, branch_step_id = null
    where campaign_id = ${r.campaignId} and lead_id = ${r.leadId} and branch_step_id = ${r.stepId}`);
  crashPoint("branch:during-effect");
  if (e.tagId)
    await tx.execute(sql`insert into lead_tags (workspace_id, lead_id, tag_id, created_at)
      select ${r.workspaceId}, ${r.leadId}, id, ${at}::timestamptz from tags where id = ${e.tagId} and workspace_id = ${r.workspaceId}
      on conflict do nothing`);
  if (e.userId)
    await tx.execute(sql`insert into thread_assignments (workspace_id, lead_id, user_id, assigned_by, assigned_at)
      select ${r.workspaceId}, ${r.leadId}, m.user_id, null, ${at}::timestamptz from memberships m
      where m.workspace_id = ${r.workspaceId} and m.user_id = ${e.userId} and m.role <> 'client'
      on conflict (workspace_id, lead_id) do update set user_id = excluded.user_id, assigned_by = null, assigned_at = excluded.assigned_at`);
  const detail = { rule, action: e.action };
  await tx.execute(sql`insert into lead_events (workspace_id, lead_id, kind, at, campaign_id, campaign_name, step_id, step_order, variant_group, detail)
    values (${r.workspaceId}, ${r.leadId}, 'branched', ${at}::timestamptz, ${c.id}, ${c.name}, ${step.id}, ${step.stepOrder},
      ${step.variantGroup || null}, ${JSON.stringify(detail)}::jsonb)`);
  const data = { leadId: r.leadId, campaignId: r.campaignId, stepId: step.id, rule, action: e.action, at };
  await tx.execute(sql`insert into events (id, workspace_id, event, data, created_at)
    values (${newEventId()}, ${r.workspaceId}, 'lead.branched', ${JSON.stringify(data)}::jsonb, ${at}::timestamptz)`);
}
