CREATE INDEX "api_keys_created_by_idx" ON "api_keys" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "emails_lead_email_idx" ON "emails" USING btree ("workspace_id","lead_email") WHERE campaign_id is not null;--> statement-breakpoint
CREATE INDEX "campaign_leads_subsequence_idx" ON "campaign_leads" USING btree ("subsequence_id") WHERE subsequence_id is not null;--> statement-breakpoint
CREATE INDEX "campaign_steps_subsequence_idx" ON "campaign_steps" USING btree ("subsequence_id") WHERE subsequence_id is not null;--> statement-breakpoint
CREATE INDEX "lead_branches_lead_idx" ON "lead_branches" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "step_attachments_file_idx" ON "step_attachments" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "sent_replies_mailbox_idx" ON "sent_replies" USING btree ("mailbox_id");--> statement-breakpoint
CREATE INDEX "alerts_mailbox_idx" ON "alerts" USING btree ("mailbox_id");--> statement-breakpoint
CREATE INDEX "placement_results_seed_mailbox_idx" ON "placement_results" USING btree ("seed_mailbox_id") WHERE seed_mailbox_id is not null;--> statement-breakpoint
CREATE INDEX "placement_tests_mailbox_idx" ON "placement_tests" USING btree ("mailbox_id");--> statement-breakpoint
CREATE INDEX "oauth_bulk_results_mailbox_idx" ON "oauth_bulk_results" USING btree ("mailbox_id") WHERE mailbox_id is not null;--> statement-breakpoint
CREATE INDEX "agent_chunks_document_idx" ON "agent_chunks" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "agent_website_pages_agent_idx" ON "agent_website_pages" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "agent_replies_lead_idx" ON "agent_replies" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "agent_replies_sent_reply_idx" ON "agent_replies" USING btree ("sent_reply_id") WHERE sent_reply_id is not null;--> statement-breakpoint
CREATE INDEX "thread_assignments_lead_idx" ON "thread_assignments" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "thread_assignments_assignee_idx" ON "thread_assignments" USING btree ("user_id");
--> statement-breakpoint
-- Leads deleted with their workspace: the workspace's emails go with it (emails_workspaces_delete), so
-- clearing their lead_id is work thrown away — for a large workspace, a probe of emails per lead. Only
-- leads whose workspace row is still there are cleared (as analytics_leads_delete counts only those), and
-- a statement with none such returns before reading emails at all.
create or replace function emails_leads_delete() returns trigger language plpgsql as $fn$
begin
  if not exists (select 1 from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) then
    return null;
  end if;
  update emails e set lead_id = null from old_rows o
    where e.lead_id = o.id and exists (select 1 from workspaces w where w.id = o.workspace_id);
  return null;
end
$fn$;
--> statement-breakpoint
-- 0025's function, with a second early return: a statement that changes no column the rollups read.
create or replace function analytics_emails_update() returns trigger language plpgsql as $fn$
declare removals int;
begin
  -- Nothing counted before or after (SENDING rows on both sides, emails outside campaigns): the same result, at once.
  if not exists (select 1 from new_rows n where n.campaign_id is not null
      and (n.status <> 'SENDING' or n.opened_at is not null or n.clicked_at is not null))
    and not exists (select 1 from old_rows o where o.campaign_id is not null
      and (o.status <> 'SENDING' or o.opened_at is not null or o.clicked_at is not null)) then
    return null;
  end if;
  -- No counted column changed (the retention job clearing bodies, settled tracking writing machine_opened_at,
  -- a reply's thread fields): the rows count as they did, at once. An update has as many new rows as old,
  -- so old minus new being empty means the two are the same multiset.
  if not exists (select workspace_id, campaign_id, mailbox_id, lead_email, status, bounce_type, created_at, opened_at, clicked_at from old_rows
      except all select workspace_id, campaign_id, mailbox_id, lead_email, status, bounce_type, created_at, opened_at, clicked_at from new_rows) then
    return null;
  end if;
  with chg as (select * from (select -1 as s, o.* from old_rows o union all select 1, n.* from new_rows n) c where campaign_id is not null),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_email as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (1::smallint, case when c.status in ('SENT', 'BOUNCED') then c.created_at end),
        (2::smallint, c.opened_at), (3::smallint, c.clicked_at)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0),
    md as (select ws, cmp, metric, lead, sum(d)::int as d, min(mbx) as mbx from fx group by 1, 2, 3, 4 having sum(d) <> 0),
    mk as (
      insert into analytics_campaign_marks as t (workspace_id, campaign_id, metric, lead, n)
      select ws, cmp, metric, lead, d from md order by 1, 2, 3, 4
      on conflict (workspace_id, campaign_id, metric, lead) do update set n = t.n + excluded.n
      returning t.workspace_id, t.campaign_id, t.metric, t.lead, t.n),
    flips as (
      select md.ws, md.cmp, md.mbx, md.metric,
        case when mk.n - md.d <= 0 and mk.n > 0 then 1 when mk.n - md.d > 0 and mk.n <= 0 then -1 else 0 end as f
      from mk join md on md.ws = mk.workspace_id and md.cmp = mk.campaign_id and md.metric = mk.metric and md.lead = mk.lead),
    lk as (select ws, metric, lead, bool_or(d < 0) as removed, max(at) filter (where d > 0) as at, min(mbx) as mbx from fx group by 1, 2, 3),
    added as (
      insert into analytics_lead_last as t (workspace_id, metric, lead, at)
      select ws, metric, lead, at from lk where not removed order by 1, 2, 3
      on conflict (workspace_id, metric, lead) do update set prev_at = t.at, at = greatest(t.at, excluded.at)
      returning t.workspace_id, t.metric, t.lead, t.at, t.prev_at),
    moves as (
      select lk.ws, lk.mbx, lk.metric, a.at, a.prev_at from added a
      join lk on lk.ws = a.workspace_id and lk.metric = a.metric and lk.lead = a.lead
      where a.at is distinct from a.prev_at),
    up as (
      insert into analytics_rollups as t (workspace_id, span, start, campaign_id, mailbox_id, sent, bounced, bounced_hard,
        bounced_soft, failed, contacted, opened, clicked, replied, positive, max_at)
      select ws, span, start, cmp, mbx, sum(sent), sum(bounced), sum(bounced_hard), sum(bounced_soft), sum(failed),
        coalesce(sum(v) filter (where metric = 1), 0), coalesce(sum(v) filter (where metric = 2), 0), coalesce(sum(v) filter (where metric = 3), 0),
        coalesce(sum(v) filter (where metric = 4), 0), coalesce(sum(v) filter (where metric = 5), 0), max(max_at)
      from (select c.workspace_id as ws, sp.span, sp.start, sp.cmp, c.mailbox_id as mbx,
        c.s * (c.status in ('SENT', 'BOUNCED'))::int as sent, c.s * (c.status = 'BOUNCED')::int as bounced,
        c.s * (c.status = 'BOUNCED' and c.bounce_type is distinct from 'SOFT')::int as bounced_hard,
        c.s * (c.status = 'BOUNCED' and c.bounce_type = 'SOFT')::int as bounced_soft, c.s * (c.status = 'FAILED')::int as failed,
        0::smallint as metric, 0 as v, case when c.s > 0 then c.created_at end as max_at
      from chg c cross join lateral (values (0::smallint, 'epoch'::timestamptz, c.campaign_id),
        (1::smallint, date_bin('1 hour', c.created_at, 'epoch'), ''), (2::smallint, date_bin('1 day', c.created_at, 'epoch'), '')) sp(span, start, cmp)
      where c.status <> 'SENDING'
      union all select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_bin('1 hour', mv.prev_at, 'epoch'), -1, null::timestamptz),
        (2::smallint, date_bin('1 day', mv.prev_at, 'epoch'), -1, null::timestamptz),
        (1::smallint, date_bin('1 hour', mv.at, 'epoch'), 1, mv.at), (2::smallint, date_bin('1 day', mv.at, 'epoch'), 1, mv.at)) sp(span, start, v, max_at)
      where sp.start is not null) x
      group by ws, span, start, cmp, mbx
      having sum(sent) <> 0 or sum(bounced) <> 0 or sum(failed) <> 0 or sum(v) <> 0
      order by ws, span, start, cmp, mbx
      on conflict (workspace_id, span, start, campaign_id, mailbox_id) do update set
        sent = t.sent + excluded.sent, bounced = t.bounced + excluded.bounced, bounced_hard = t.bounced_hard + excluded.bounced_hard,
        bounced_soft = t.bounced_soft + excluded.bounced_soft, failed = t.failed + excluded.failed,
        contacted = t.contacted + excluded.contacted, opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked,
        replied = t.replied + excluded.replied, positive = t.positive + excluded.positive, max_at = greatest(t.max_at, excluded.max_at))
  select count(*) filter (where removed) into removals from lk;
  if removals > 0 then
    -- A removed activity: the lead's latest is read again from the rows, under its lock (a concurrent
    -- writer of the same lead waits, then raises it from what is read here).
    perform 1 from analytics_lead_last t
      join (with chg as (select * from (select -1 as s, o.* from old_rows o union all select 1, n.* from new_rows n) c where campaign_id is not null),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_email as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (1::smallint, case when c.status in ('SENT', 'BOUNCED') then c.created_at end),
        (2::smallint, c.opened_at), (3::smallint, c.clicked_at)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0) select distinct ws, metric, lead from fx where d < 0) r on r.ws = t.workspace_id and r.metric = t.metric and r.lead = t.lead
      order by t.workspace_id, t.metric, t.lead for update of t;
    with chg as (select * from (select -1 as s, o.* from old_rows o union all select 1, n.* from new_rows n) c where campaign_id is not null),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_email as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (1::smallint, case when c.status in ('SENT', 'BOUNCED') then c.created_at end),
        (2::smallint, c.opened_at), (3::smallint, c.clicked_at)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0),
      rk as (select ws, metric, lead, min(mbx) as mbx from fx where d < 0 group by 1, 2, 3),
      rc as (select k.ws, k.metric, k.lead, max(case k.metric when 1 then case when e.status in ('SENT', 'BOUNCED') then e.created_at end
        when 2 then e.opened_at else e.clicked_at end) as at
      from rk k join emails e on e.workspace_id = k.ws and e.lead_email = k.lead and e.campaign_id is not null group by 1, 2, 3),
      removed as (
        update analytics_lead_last t set prev_at = t.at, at = rc.at
        from rk left join rc on rc.ws = rk.ws and rc.metric = rk.metric and rc.lead = rk.lead
        where t.workspace_id = rk.ws and t.metric = rk.metric and t.lead = rk.lead
        returning t.workspace_id, t.metric, t.lead, t.at, t.prev_at),
      moves as (
        select rk.ws, rk.mbx, rk.metric, r.at, r.prev_at from removed r
        join rk on rk.ws = r.workspace_id and rk.metric = r.metric and rk.lead = r.lead
        where r.at is distinct from r.prev_at)
    insert into analytics_rollups as t (workspace_id, span, start, campaign_id, mailbox_id, sent, bounced, bounced_hard,
        bounced_soft, failed, contacted, opened, clicked, replied, positive, max_at)
      select ws, span, start, cmp, mbx, sum(sent), sum(bounced), sum(bounced_hard), sum(bounced_soft), sum(failed),
        coalesce(sum(v) filter (where metric = 1), 0), coalesce(sum(v) filter (where metric = 2), 0), coalesce(sum(v) filter (where metric = 3), 0),
        coalesce(sum(v) filter (where metric = 4), 0), coalesce(sum(v) filter (where metric = 5), 0), max(max_at)
      from (select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_bin('1 hour', mv.prev_at, 'epoch'), -1, null::timestamptz),
        (2::smallint, date_bin('1 day', mv.prev_at, 'epoch'), -1, null::timestamptz),
        (1::smallint, date_bin('1 hour', mv.at, 'epoch'), 1, mv.at), (2::smallint, date_bin('1 day', mv.at, 'epoch'), 1, mv.at)) sp(span, start, v, max_at)
      where sp.start is not null) x
      group by ws, span, start, cmp, mbx
      having sum(sent) <> 0 or sum(bounced) <> 0 or sum(failed) <> 0 or sum(v) <> 0
      order by ws, span, start, cmp, mbx
      on conflict (workspace_id, span, start, campaign_id, mailbox_id) do update set
        sent = t.sent + excluded.sent, bounced = t.bounced + excluded.bounced, bounced_hard = t.bounced_hard + excluded.bounced_hard,
        bounced_soft = t.bounced_soft + excluded.bounced_soft, failed = t.failed + excluded.failed,
        contacted = t.contacted + excluded.contacted, opened = t.opened + excluded.opened, clicked = t.clicked + excluded.clicked,
        replied = t.replied + excluded.replied, positive = t.positive + excluded.positive, max_at = greatest(t.max_at, excluded.max_at);
  end if;
  return null;
end
$fn$;
