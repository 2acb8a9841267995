import { sql, type SQL } from "drizzle-orm";
import { selectRows } from "../../db/bulk";
import { requireAccess, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { newText } from "../ai/classify";
import { offsetOf } from "../paging";
import type { TimelineDetail, TimelineEvent, TimelineKind, TimelineQuery } from "./timeline-schemas";

/**
 * GET /leads/<id>/timeline: everything that happened to a lead, newest first, read from the tables that
 * hold each fact — emails (sent, bounced), tracking hits (opened, clicked, the unsubscribe link),
 * replies (replied; a reply asking to be removed is also `unsubscribed`), campaign leads
 * (campaign_added), lead tags (tagged), the suppression list (suppressed: the address or its whole
 * domain) — and from lead_events for what no other table keeps (campaign_removed, untagged, branched;
 * see lead-events.ts). A link that was removed still shows when it was made, from the event's `since`.
 *
 * A reply shows at its Date header's time, but never before the email it answers. A bounce shows at
 * the time of its send (a bounce reported later by a delivery notice has no time of its own), and a
 * bounced email is not also `sent`.
 */

/** One row of the union below, as the driver returns it. */
interface EventRow extends Record<string, unknown> {
  at: string | Date;
  kind: TimelineKind;
  campaign_id: string | null;
  campaign_name: string | null;
  step_id: string | null;
  step_order: number | null;
  variant: string | null;
  detail: Record<string, unknown>;
}

/**
 * Every event of the lead, as one set: `at`, `kind`, `ord` (which of two events at the same moment is
 * the later: a reply after the email it answers), `key` (a unique tie-break, so paging is stable),
 * campaign and step, and `detail`.
 */
function eventsOf(workspaceId: string, leadId: string, email: string): SQL {
  const address = email.toLowerCase();
  const domain = address.slice(address.lastIndexOf("@") + 1);
  const mailbox = sql`case when m.id is null then null else jsonb_build_object('id', m.id, 'email', m.email) end`;
  // A reply's time is its Date header, the writer's clock (to the second): it never shows before the
  // email it answers.
  const replyAt = sql`greatest(r.received_at, re.sent_at)`;
  return sql`
    select e.sent_at as at, 'sent' as kind, 2 as ord, e.id as key, e.campaign_id, null::text as campaign_name,
      e.step_id, e.step_order, e.variant_group as variant,
      jsonb_strip_nulls(jsonb_build_object('emailId', e.id, 'subject', e.subject, 'mailbox', ${mailbox})) as detail
    from emails e left join mailboxes m on m.id = e.mailbox_id
    where e.workspace_id = ${workspaceId} and e.lead_id = ${leadId} and e.status = 'SENT' and e.sent_at is not null
    union all
    select coalesce(e.sent_at, e.created_at), 'bounced', 3, e.id, e.campaign_id, null, e.step_id, e.step_order, e.variant_group,
      jsonb_strip_nulls(jsonb_build_object('emailId', e.id, 'subject', e.subject, 'mailbox', ${mailbox},
        'bounceType', lower(e.bounce_type::text))) || jsonb_build_object('code', e.smtp_code, 'reason', e.smtp_response)
    from emails e left join mailboxes m on m.id = e.mailbox_id
    where e.workspace_id = ${workspaceId} and e.lead_id = ${leadId} and e.status = 'BOUNCED'
    union all
    select x.created_at, case x.kind when 'OPEN' then 'opened' when 'CLICK' then 'clicked' else 'unsubscribed' end,
      case x.kind when 'OPEN' then 4 when 'CLICK' then 5 else 7 end, x.id, e.campaign_id, null, e.step_id, e.step_order, e.variant_group,
      jsonb_strip_nulls(jsonb_build_object('emailId', e.id, 'subject', e.subject, 'url', x.url,
        'source', case when x.kind = 'UNSUBSCRIBE' then 'link' end))
    from email_events x join emails e on e.id = x.email_id
    where e.workspace_id = ${workspaceId} and e.lead_id = ${leadId}
    union all
    select ${replyAt}, 'replied', 6, r.id, coalesce(r.campaign_id, re.campaign_id), null, re.step_id, re.step_order, re.variant_group,
      jsonb_build_object('replyId', r.id, 'intent', r.intent, 'automatic', r.is_auto_reply, 'subject', r.subject,
        'text', left(r.text_body, 4000))
    from replies r left join emails re on re.id = r.email_id
    where r.workspace_id = ${workspaceId} and r.lead_id = ${leadId}
    union all
    select ${replyAt}, 'unsubscribed', 7, r.id || ':unsubscribed', coalesce(r.campaign_id, re.campaign_id), null,
      re.step_id, re.step_order, re.variant_group, jsonb_build_object('replyId', r.id, 'source', 'reply')
    from replies r left join emails re on re.id = r.email_id
    where r.workspace_id = ${workspaceId} and r.lead_id = ${leadId} and r.intent = 'UNSUBSCRIBE_REQUEST'
    union all
    select cl.added_at, 'campaign_added', 1, 'cl:' || cl.campaign_id, cl.campaign_id, null, null, null, null,
      jsonb_build_object('status', cl.status)
    from campaign_leads cl
    where cl.workspace_id = ${workspaceId} and cl.lead_id = ${leadId}
    union all
    select lt.created_at, 'tagged', 1, 'lt:' || lt.tag_id, null, null, null, null, null,
      jsonb_build_object('tag', jsonb_build_object('id', t.id, 'name', t.name, 'color', t.color))
    from lead_tags lt join tags t on t.id = lt.tag_id
    where lt.workspace_id = ${workspaceId} and lt.lead_id = ${leadId}
    union all
    select s.created_at, 'suppressed', 8, s.id, null, null, null, null, null,
      jsonb_build_object('entry', jsonb_build_object('id', s.id, 'kind', s.kind, 'value', s.value), 'reason', s.reason)
    from suppressions s
    where s.workspace_id = ${workspaceId}
      and ((s.kind = 'email' and s.value = ${address}) or (s.kind = 'domain' and s.value = ${domain}))
    union all
    select le.at, le.kind, 9, 'le:' || le.id, le.campaign_id, le.campaign_name, le.step_id, le.step_order, le.variant_group,
      le.detail || jsonb_strip_nulls(jsonb_build_object('tag',
        case when le.tag_id is null then null else jsonb_build_object('id', le.tag_id, 'name', le.tag_name) end))
    from lead_events le
    where le.workspace_id = ${workspaceId} and le.lead_id = ${leadId}
    union all
    select le.since, case le.kind when 'campaign_removed' then 'campaign_added' else 'tagged' end, 1, 'since:' || le.id,
      le.campaign_id, le.campaign_name, null, null, null,
      jsonb_strip_nulls(jsonb_build_object('tag',
        case when le.tag_id is null then null else jsonb_build_object('id', le.tag_id, 'name', le.tag_name) end))
    from lead_events le
    where le.workspace_id = ${workspaceId} and le.lead_id = ${leadId}
      and le.kind in ('campaign_removed', 'untagged') and le.since is not null`;
}

/** The start of a reply's new text (quoted history dropped), one line, for the timeline. */
function snippetOf(text: unknown, max = 200): string {
  const s = newText(String(text ?? ""))
    .replace(/\s+/g, " ")
    .trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function toEvent(r: EventRow): TimelineEvent {
  const { text, ...rest } = r.detail;
  const detail = rest as TimelineDetail;
  if (r.kind === "replied") detail.snippet = snippetOf(text);
  const ev: TimelineEvent = { at: new Date(r.at).toISOString(), kind: r.kind, detail };
  if (r.campaign_id) ev.campaign = { id: r.campaign_id, name: r.campaign_name };
  if (r.step_id && r.step_order !== null) {
    ev.step = { id: r.step_id, order: r.step_order };
    if (r.variant) ev.step.variant = r.variant;
  }
  return ev;
}

export async function leadTimeline(ctx: Ctx, leadId: string, q: TimelineQuery): Promise<{ rows: TimelineEvent[]; total: number }> {
  requireAccess(ctx, "read");
  const [lead] = await selectRows<{ email: string }>(
    ctx.db,
    sql`select email from leads where id = ${leadId} and workspace_id = ${ctx.workspaceId}`,
  );
  if (!lead) throw new NotFoundError("Lead");
  const all = eventsOf(ctx.workspaceId, leadId, lead.email);
  const [rows, [{ n }]] = await Promise.all([
    selectRows<EventRow>(
      ctx.db,
      sql`select ev.at, ev.kind, ev.campaign_id, coalesce(c.name, ev.campaign_name) as campaign_name,
          ev.step_id, ev.step_order, ev.variant, ev.detail
        from (${all}) ev left join campaigns c on c.id = ev.campaign_id
        order by ev.at desc, ev.ord desc, ev.key desc
        limit ${q.limit} offset ${offsetOf(q)}`,
    ),
    // Counted apart: the total of every page, also when this page is past the end.
    selectRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from (${all}) ev`),
  ]);
  return { rows: rows.map(toEvent), total: n };
}
