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
        cl.next_step_order, cl.next_send_at, cl.added_at, cl.first_emailed_at, cl.last_emailed_at
      from campaign_leads cl
      join campaigns c on c.id = cl.campaign_id
      left join mailboxes m on m.id = cl.mailbox_id
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
  }));
}
