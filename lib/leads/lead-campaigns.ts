import { sql } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import type { LeadCampaign } from "./timeline-schemas";

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  status: LeadCampaign["status"];
  lead_status: LeadCampaign["leadStatus"];
  mailbox_id: string | null;
  mailbox_email: string | null;
  next_step_order: number;
  next_send_at: string | Date | null;
  added_at: string | Date;
  first_emailed_at: string | Date | null;
  last_emailed_at: string | Date | null;
  subsequence_id: string | null;
  subsequence_name: string | null;
  paused_until: string | Date | null;
  pause_reason: string | null;
  waiting_on_branch: boolean;
  last_rule: string | null;
  last_action: { type: string; [k: string]: unknown } | null;
  last_at: string | Date | null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** GET /leads/<id>/campaigns: the campaigns the lead is in now, the latest added first. */
export async function leadCampaigns(ctx: Ctx, leadId: string): Promise<LeadCampaign[]> {
  requireAccess(ctx, "read");
  const [lead] = await selectRows<{ id: string }>(
    ctx.db,
    sql`select id from leads where id = ${leadId} and workspace_id = ${ctx.workspaceId}`,
  );
  if (!lead) throw new NotFoundError("Lead");
  const rows = await selectRows<Row>(
    ctx.db,
    sql`select c.id, c.name, c.status, cl.status as lead_status, cl.mailbox_id, m.email as mailbox_email,
        cl.next_step_order, cl.next_send_at, cl.added_at, cl.first_emailed_at, cl.last_emailed_at,
        cl.subsequence_id, sub.name as subsequence_name, cl.paused_until, cl.pause_reason,
        cl.branch_step_id is not null as waiting_on_branch, lb.rule as last_rule, lb.action as last_action, lb.decided_at as last_at
      from campaign_leads cl
      join campaigns c on c.id = cl.campaign_id
      left join mailboxes m on m.id = cl.mailbox_id
      left join campaign_subsequences sub on sub.id = cl.subsequence_id
      left join lateral (select rule, action, decided_at from lead_branches
        where campaign_id = cl.campaign_id and lead_id = cl.lead_id order by decided_at desc limit 1) lb on true
      where cl.workspace_id = ${ctx.workspaceId} and cl.lead_id = ${leadId}
      order by cl.added_at desc, cl.seq desc`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status,
    leadStatus: r.lead_status,
    mailbox: r.mailbox_id && r.mailbox_email ? { id: r.mailbox_id, email: r.mailbox_email } : null,
    nextStepOrder: r.next_step_order,
    nextSendAt: iso(r.next_send_at),
    addedAt: iso(r.added_at)!,
    firstEmailedAt: iso(r.first_emailed_at),
    lastEmailedAt: iso(r.last_emailed_at),
    subsequence: r.subsequence_id ? { id: r.subsequence_id, name: r.subsequence_name ?? "" } : null,
    pausedUntil: iso(r.paused_until),
    pauseReason: r.pause_reason,
    waitingOnBranch: r.waiting_on_branch,
    lastBranch: r.last_rule && r.last_action ? { rule: r.last_rule, action: r.last_action, at: iso(r.last_at)! } : null,
  }));
}
