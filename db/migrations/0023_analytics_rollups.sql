CREATE TABLE "analytics_campaign_marks" (
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"metric" smallint NOT NULL,
	"lead" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "analytics_campaign_marks_workspace_id_campaign_id_metric_lead_pk" PRIMARY KEY("workspace_id","campaign_id","metric","lead")
);
--> statement-breakpoint
CREATE TABLE "analytics_lead_last" (
	"workspace_id" text NOT NULL,
	"metric" smallint NOT NULL,
	"lead" text NOT NULL,
	"at" timestamp with time zone,
	"prev_at" timestamp with time zone,
	CONSTRAINT "analytics_lead_last_workspace_id_metric_lead_pk" PRIMARY KEY("workspace_id","metric","lead")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollups" (
	"workspace_id" text NOT NULL,
	"span" smallint NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"campaign_id" text NOT NULL,
	"mailbox_id" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"bounced_hard" integer DEFAULT 0 NOT NULL,
	"bounced_soft" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"contacted" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"replied" integer DEFAULT 0 NOT NULL,
	"positive" integer DEFAULT 0 NOT NULL,
	"max_at" timestamp with time zone,
	CONSTRAINT "analytics_rollups_workspace_id_span_start_campaign_id_mailbox_id_pk" PRIMARY KEY("workspace_id","span","start","campaign_id","mailbox_id")
);
--> statement-breakpoint
CREATE INDEX "analytics_lead_last_at_idx" ON "analytics_lead_last" USING btree ("workspace_id","metric","at");--> statement-breakpoint
create or replace function analytics_emails_insert() returns trigger language plpgsql as $fn$
declare removals int;
begin
  with chg as (select * from (select 1 as s, n.* from new_rows n) c where campaign_id is not null),
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
        (1::smallint, date_trunc('hour', c.created_at, 'UTC'), ''), (2::smallint, date_trunc('day', c.created_at, 'UTC'), '')) sp(span, start, cmp)
      where c.status <> 'SENDING'
      union all select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
      join (with chg as (select * from (select 1 as s, n.* from new_rows n) c where campaign_id is not null),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_email as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (1::smallint, case when c.status in ('SENT', 'BOUNCED') then c.created_at end),
        (2::smallint, c.opened_at), (3::smallint, c.clicked_at)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0) select distinct ws, metric, lead from fx where d < 0) r on r.ws = t.workspace_id and r.metric = t.metric and r.lead = t.lead
      order by t.workspace_id, t.metric, t.lead for update of t;
    with chg as (select * from (select 1 as s, n.* from new_rows n) c where campaign_id is not null),
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
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
--> statement-breakpoint
create trigger analytics_emails_insert after insert on emails referencing new table as new_rows for each statement execute function analytics_emails_insert();
--> statement-breakpoint
create or replace function analytics_emails_update() returns trigger language plpgsql as $fn$
declare removals int;
begin
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
        (1::smallint, date_trunc('hour', c.created_at, 'UTC'), ''), (2::smallint, date_trunc('day', c.created_at, 'UTC'), '')) sp(span, start, cmp)
      where c.status <> 'SENDING'
      union all select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
--> statement-breakpoint
create trigger analytics_emails_update after update on emails referencing old table as old_rows new table as new_rows for each statement execute function analytics_emails_update();
--> statement-breakpoint
create or replace function analytics_emails_delete() returns trigger language plpgsql as $fn$
declare removals int;
begin
  with chg as (select * from (select -1 as s, o.* from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) c where campaign_id is not null),
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
        (1::smallint, date_trunc('hour', c.created_at, 'UTC'), ''), (2::smallint, date_trunc('day', c.created_at, 'UTC'), '')) sp(span, start, cmp)
      where c.status <> 'SENDING'
      union all select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
      join (with chg as (select * from (select -1 as s, o.* from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) c where campaign_id is not null),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_email as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (1::smallint, case when c.status in ('SENT', 'BOUNCED') then c.created_at end),
        (2::smallint, c.opened_at), (3::smallint, c.clicked_at)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0) select distinct ws, metric, lead from fx where d < 0) r on r.ws = t.workspace_id and r.metric = t.metric and r.lead = t.lead
      order by t.workspace_id, t.metric, t.lead for update of t;
    with chg as (select * from (select -1 as s, o.* from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) c where campaign_id is not null),
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
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
--> statement-breakpoint
create trigger analytics_emails_delete after delete on emails referencing old table as old_rows for each statement execute function analytics_emails_delete();
--> statement-breakpoint
create or replace function analytics_replies_insert() returns trigger language plpgsql as $fn$
declare removals int;
begin
  with chg as (select * from (select 1 as s, n.* from new_rows n) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
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
      from (select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
      join (with chg as (select * from (select 1 as s, n.* from new_rows n) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0) select distinct ws, metric, lead from fx where d < 0) r on r.ws = t.workspace_id and r.metric = t.metric and r.lead = t.lead
      order by t.workspace_id, t.metric, t.lead for update of t;
    with chg as (select * from (select 1 as s, n.* from new_rows n) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0),
      rk as (select ws, metric, lead, min(mbx) as mbx from fx where d < 0 group by 1, 2, 3),
      rc as (select k.ws, k.metric, k.lead, max(r.received_at) filter (where k.metric = 4 or r.intent = 'INTERESTED') as at
      from rk k join replies r on r.lead_id = k.lead and r.workspace_id = k.ws
      where r.campaign_id is not null and not r.is_auto_reply group by 1, 2, 3),
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
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
--> statement-breakpoint
create trigger analytics_replies_insert after insert on replies referencing new table as new_rows for each statement execute function analytics_replies_insert();
--> statement-breakpoint
create or replace function analytics_replies_update() returns trigger language plpgsql as $fn$
declare removals int;
begin
  with chg as (select * from (select -1 as s, o.* from old_rows o union all select 1, n.* from new_rows n) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
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
      from (select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
      join (with chg as (select * from (select -1 as s, o.* from old_rows o union all select 1, n.* from new_rows n) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0) select distinct ws, metric, lead from fx where d < 0) r on r.ws = t.workspace_id and r.metric = t.metric and r.lead = t.lead
      order by t.workspace_id, t.metric, t.lead for update of t;
    with chg as (select * from (select -1 as s, o.* from old_rows o union all select 1, n.* from new_rows n) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0),
      rk as (select ws, metric, lead, min(mbx) as mbx from fx where d < 0 group by 1, 2, 3),
      rc as (select k.ws, k.metric, k.lead, max(r.received_at) filter (where k.metric = 4 or r.intent = 'INTERESTED') as at
      from rk k join replies r on r.lead_id = k.lead and r.workspace_id = k.ws
      where r.campaign_id is not null and not r.is_auto_reply group by 1, 2, 3),
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
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
--> statement-breakpoint
create trigger analytics_replies_update after update on replies referencing old table as old_rows new table as new_rows for each statement execute function analytics_replies_update();
--> statement-breakpoint
create or replace function analytics_replies_delete() returns trigger language plpgsql as $fn$
declare removals int;
begin
  with chg as (select * from (select -1 as s, o.* from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
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
      from (select ws, 0::smallint as span, 'epoch'::timestamptz as start, cmp, mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft,
        0 as failed, metric, f as v, null::timestamptz as max_at from flips where f <> 0
      union all select mv.ws, sp.span, sp.start, ''::text as cmp, mv.mbx, 0 as sent, 0 as bounced, 0 as bounced_hard, 0 as bounced_soft, 0 as failed,
        mv.metric, sp.v, sp.max_at
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
      join (with chg as (select * from (select -1 as s, o.* from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0) select distinct ws, metric, lead from fx where d < 0) r on r.ws = t.workspace_id and r.metric = t.metric and r.lead = t.lead
      order by t.workspace_id, t.metric, t.lead for update of t;
    with chg as (select * from (select -1 as s, o.* from old_rows o where exists (select 1 from workspaces w where w.id = o.workspace_id)) c where campaign_id is not null and lead_id is not null and not is_auto_reply),
    fx as (select c.workspace_id as ws, c.campaign_id as cmp, c.mailbox_id as mbx, m.metric, c.lead_id as lead, m.at, sum(c.s)::int as d
      from chg c cross join lateral (values (4::smallint, c.received_at), (5::smallint, case when c.intent = 'INTERESTED' then c.received_at end)) m(metric, at)
      where m.at is not null group by 1, 2, 3, 4, 5, 6 having sum(c.s) <> 0),
      rk as (select ws, metric, lead, min(mbx) as mbx from fx where d < 0 group by 1, 2, 3),
      rc as (select k.ws, k.metric, k.lead, max(r.received_at) filter (where k.metric = 4 or r.intent = 'INTERESTED') as at
      from rk k join replies r on r.lead_id = k.lead and r.workspace_id = k.ws
      where r.campaign_id is not null and not r.is_auto_reply group by 1, 2, 3),
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
      from moves mv cross join lateral (values (1::smallint, date_trunc('hour', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (2::smallint, date_trunc('day', mv.prev_at, 'UTC'), -1, null::timestamptz),
        (1::smallint, date_trunc('hour', mv.at, 'UTC'), 1, mv.at), (2::smallint, date_trunc('day', mv.at, 'UTC'), 1, mv.at)) sp(span, start, v, max_at)
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
--> statement-breakpoint
create trigger analytics_replies_delete after delete on replies referencing old table as old_rows for each statement execute function analytics_replies_delete();
--> statement-breakpoint
create function analytics_workspaces_delete() returns trigger language plpgsql as $fn$
begin
  delete from analytics_rollups where workspace_id in (select id from old_rows);
  delete from analytics_lead_last where workspace_id in (select id from old_rows);
  delete from analytics_campaign_marks where workspace_id in (select id from old_rows);
  return null;
end
$fn$;
--> statement-breakpoint
create trigger analytics_workspaces_delete after delete on workspaces referencing old table as old_rows for each statement execute function analytics_workspaces_delete();
--> statement-breakpoint
-- Backfill: what the triggers would have written had they always been there (upgraded installs stay exact).
create temporary table analytics_backfill on commit drop as
  select e.workspace_id as ws, e.campaign_id as cmp, e.mailbox_id as mbx, m.metric, e.lead_email as lead, m.at
  from emails e cross join lateral (values (1::smallint, case when e.status in ('SENT', 'BOUNCED') then e.created_at end),
    (2::smallint, e.opened_at), (3::smallint, e.clicked_at)) m(metric, at)
  where e.campaign_id is not null and m.at is not null
  union all
  select r.workspace_id, r.campaign_id, r.mailbox_id, m.metric, r.lead_id, m.at
  from replies r cross join lateral (values (4::smallint, r.received_at),
    (5::smallint, case when r.intent = 'INTERESTED' then r.received_at end)) m(metric, at)
  where r.campaign_id is not null and r.lead_id is not null and not r.is_auto_reply and m.at is not null;
--> statement-breakpoint
insert into analytics_campaign_marks (workspace_id, campaign_id, metric, lead, n)
  select ws, cmp, metric, lead, count(*) from analytics_backfill group by 1, 2, 3, 4;
--> statement-breakpoint
insert into analytics_lead_last (workspace_id, metric, lead, at)
  select ws, metric, lead, max(at) from analytics_backfill group by 1, 2, 3;
--> statement-breakpoint
insert into analytics_rollups (workspace_id, span, start, campaign_id, mailbox_id, sent, bounced, bounced_hard, bounced_soft, failed,
    contacted, opened, clicked, replied, positive, max_at)
  select ws, span, start, cmp, mbx, sum(sent), sum(bounced), sum(bounced_hard), sum(bounced_soft), sum(failed),
    coalesce(sum(v) filter (where metric = 1), 0), coalesce(sum(v) filter (where metric = 2), 0), coalesce(sum(v) filter (where metric = 3), 0),
    coalesce(sum(v) filter (where metric = 4), 0), coalesce(sum(v) filter (where metric = 5), 0), max(max_at)
  from (
    select e.workspace_id as ws, sp.span, sp.start, sp.cmp, e.mailbox_id as mbx,
      (e.status in ('SENT', 'BOUNCED'))::int as sent, (e.status = 'BOUNCED')::int as bounced,
      (e.status = 'BOUNCED' and e.bounce_type is distinct from 'SOFT')::int as bounced_hard,
      (e.status = 'BOUNCED' and e.bounce_type = 'SOFT')::int as bounced_soft, (e.status = 'FAILED')::int as failed,
      0::smallint as metric, 0 as v, e.created_at as max_at
    from emails e cross join lateral (values (0::smallint, 'epoch'::timestamptz, e.campaign_id),
      (1::smallint, date_trunc('hour', e.created_at, 'UTC'), ''), (2::smallint, date_trunc('day', e.created_at, 'UTC'), '')) sp(span, start, cmp)
    where e.campaign_id is not null and e.status <> 'SENDING'
    union all
    select ws, 0::smallint, 'epoch'::timestamptz, cmp, min(mbx), 0, 0, 0, 0, 0, metric, 1, null::timestamptz
    from analytics_backfill group by ws, cmp, metric, lead
    union all
    select l.ws, sp.span, sp.start, '', l.mbx, 0, 0, 0, 0, 0, l.metric, 1, l.at
    from (select ws, metric, lead, max(at) as at, min(mbx) as mbx from analytics_backfill group by 1, 2, 3) l
    cross join lateral (values (1::smallint, date_trunc('hour', l.at, 'UTC')), (2::smallint, date_trunc('day', l.at, 'UTC'))) sp(span, start)
  ) x
  group by ws, span, start, cmp, mbx
  having sum(sent) <> 0 or sum(bounced) <> 0 or sum(failed) <> 0 or sum(v) <> 0;
