/**
 * The world of bench:scale:delete, seeded with generate_series: a workspace's leads, each in one of
 * ten campaigns (contiguous blocks, so a campaign's leads are a range of lead numbers), each emailed
 * five times by the campaign's step (the first opened for every third lead, clicked for every ninth),
 * one tracking hit per opened email, a timeline row per lead, a tag on every fourth and a reply from
 * every twentieth. The analytics rollups follow from the triggers as the rows go in.
 * Lead k of world `t` is lead_t_k, lead k @ d(k % 1000).t.test; its emails are eml_t_k_j.
 */
import type postgres from "postgres";

export const CAMPAIGNS = 10;
export const EMAILS_PER_LEAD = 5;
export const MAILBOXES = 20;
const CHUNK = 100_000;

export interface World {
  tag: string;
  workspaceId: string;
  leads: number;
}

export const leadId = (w: World, k: number) => `lead_${w.tag}_${k}`;
/** The campaign that lead k is in (campaign c holds leads [c·L/10, (c+1)·L/10)). */
export const campaignId = (w: World, c: number) => `cmp_${w.tag}_${c}`;
export const perCampaign = (w: World) => Math.floor(w.leads / CAMPAIGNS);

/** The campaigns, their steps, the mailboxes and the tags: what lead rows point to. */
export async function seedFrame(pg: postgres.Sql, w: World, pwdEnc: string): Promise<void> {
  const { tag: t, workspaceId: ws } = w;
  await pg`insert into domains (id, workspace_id, domain) values (${`dom_${t}`}, ${ws}, ${`${t}.bench.test`})`;
  await pg`insert into mailboxes (id, workspace_id, domain_id, email, sender_name, provider, esp_class, smtp_host, smtp_port, smtp_security,
      smtp_username, smtp_password_enc, imap_host, imap_port, imap_security, imap_username, imap_password_enc)
    select 'mbx_' || ${t} || '_' || i, ${ws}, ${`dom_${t}`}, 's' || i || '@' || ${t} || '.bench.test', 'Sender ' || i, 'CUSTOM', 'OTHER',
      '127.0.0.1', 1, 'NONE', 's' || i, ${pwdEnc}, '127.0.0.1', 1, 'NONE', 's' || i, ${pwdEnc}
    from generate_series(0, ${MAILBOXES - 1}) i`;
  await pg`insert into tags (id, workspace_id, name) select 'tag_' || ${t} || '_' || i, ${ws}, 'Tag ' || i from generate_series(0, 4) i`;
  for (let c = 0; c < CAMPAIGNS; c++) await seedCampaign(pg, w, c);
}

/** Campaign c, its step and its mailboxes (what deleting the campaign takes with it, leads aside). */
export async function seedCampaign(pg: postgres.Sql, w: World, c: number): Promise<void> {
  const { tag: t, workspaceId: ws } = w;
  const id = campaignId(w, c);
  await pg`insert into campaigns (id, workspace_id, name, status, first_sent_at) values (${id}, ${ws}, ${`Campaign ${c}`}, 'ACTIVE', now())`;
  await pg`insert into campaign_steps (id, workspace_id, campaign_id, step_order, variant_group, subject, body_template)
    values (${`stp_${t}_${c}`}, ${ws}, ${id}, 0, '', 'Hello', 'Hi {{firstName}}')`;
  await pg`insert into campaign_mailboxes (workspace_id, campaign_id, mailbox_id)
    select ${ws}, ${id}, 'mbx_' || ${t} || '_' || i from generate_series(0, ${MAILBOXES - 1}) i`;
}

/** Leads [from, to) with their campaign rows, timeline, tags and replies (not their emails). */
export async function seedLeads(pg: postgres.Sql, w: World, from: number, to: number): Promise<void> {
  const { tag: t, workspaceId: ws } = w;
  const per = perCampaign(w);
  for (let a = from; a < to; a += CHUNK) {
    const b = Math.min(to, a + CHUNK) - 1;
    await pg`insert into leads (id, workspace_id, email, first_name, last_name, company_name, timezone, created_at, updated_at)
      select 'lead_' || ${t} || '_' || k, ${ws}, 'lead' || k || '@d' || (k % 1000) || '.' || ${t} || '.test', 'First' || k, 'Last' || k,
        'Company ' || (k % 1000), 'UTC', now(), now()
      from generate_series(${a}::int, ${b}::int) k`;
    await pg`insert into campaign_leads (workspace_id, campaign_id, lead_id, mailbox_id, status, next_step_order)
      select ${ws}, 'cmp_' || ${t} || '_' || least(k / ${per}, ${CAMPAIGNS - 1}), 'lead_' || ${t} || '_' || k,
        'mbx_' || ${t} || '_' || (k % ${MAILBOXES}), 'COMPLETED', ${EMAILS_PER_LEAD}
      from generate_series(${a}::int, ${b}::int) k`;
    await pg`insert into lead_events (workspace_id, lead_id, kind, at, campaign_id)
      select ${ws}, 'lead_' || ${t} || '_' || k, 'campaign_added', now() - interval '30 days', 'cmp_' || ${t} || '_' || least(k / ${per}, ${CAMPAIGNS - 1})
      from generate_series(${a}::int, ${b}::int) k`;
    await pg`insert into lead_tags (workspace_id, lead_id, tag_id)
      select ${ws}, 'lead_' || ${t} || '_' || k, 'tag_' || ${t} || '_' || (k / 4 % 5) from generate_series(${a}::int, ${b}::int) k where k % 4 = 0`;
    await pg`insert into replies (id, workspace_id, mailbox_id, lead_id, campaign_id, email_id, message_id, subject, received_at, intent)
      select 'rpl_' || ${t} || '_' || k, ${ws}, 'mbx_' || ${t} || '_' || (k % ${MAILBOXES}), 'lead_' || ${t} || '_' || k,
        'cmp_' || ${t} || '_' || least(k / ${per}, ${CAMPAIGNS - 1}), 'eml_' || ${t} || '_' || k || '_0', '<r' || k || '@' || ${t} || '.test>', 'Re: Hello',
        now() - interval '20 days', case when k % 40 = 0 then 'INTERESTED'::reply_intent else 'QUESTION'::reply_intent end
      from generate_series(${a}::int, ${b}::int) k where k % 20 = 0`;
  }
}

/** The emails of leads [from, to), five each, and a tracking hit per opened one. */
export async function seedEmails(pg: postgres.Sql, w: World, from: number, to: number): Promise<void> {
  const { tag: t, workspaceId: ws } = w;
  const per = perCampaign(w);
  for (let a = from; a < to; a += CHUNK / EMAILS_PER_LEAD) {
    const b = Math.min(to, a + CHUNK / EMAILS_PER_LEAD) - 1;
    await pg`insert into emails (id, workspace_id, mailbox_id, lead_id, lead_email, campaign_id, step_id, step_order, message_id, subject, status,
        created_at, sent_at, opened_at, clicked_at, body_text)
      select 'eml_' || ${t} || '_' || k || '_' || j, ${ws}, 'mbx_' || ${t} || '_' || (k % ${MAILBOXES}), 'lead_' || ${t} || '_' || k,
        'lead' || k || '@d' || (k % 1000) || '.' || ${t} || '.test', 'cmp_' || ${t} || '_' || least(k / ${per}, ${CAMPAIGNS - 1}),
        'stp_' || ${t} || '_' || least(k / ${per}, ${CAMPAIGNS - 1}), 0, '<e' || k || '.' || j || '@' || ${t} || '.test>', 'Hello', 'SENT',
        s.at, s.at, case when j = 0 and k % 3 = 0 then s.at + interval '1 hour' end, case when j = 0 and k % 9 = 0 then s.at + interval '2 hours' end,
        'Hi First' || k
      from generate_series(${a}::int, ${b}::int) k cross join generate_series(0, ${EMAILS_PER_LEAD - 1}) j
      cross join lateral (select now() - interval '60 days' + j * interval '7 days' + (k % 600) * interval '1 minute' as at) s`;
    await pg`insert into email_events (id, workspace_id, email_id, kind, created_at, settled_at)
      select 'eev_' || ${t} || '_' || k, ${ws}, 'eml_' || ${t} || '_' || k || '_0', 'OPEN', now() - interval '50 days', now() - interval '50 days'
      from generate_series(${a}::int, ${b}::int) k where k % 3 = 0`;
  }
}

/** Counts of a workspace's rows, table by table: what a delete must leave exact. */
export async function countsOf(pg: postgres.Sql, ws: string): Promise<Record<string, number>> {
  const [r] = await pg<Record<string, number>[]>`select
      (select count(*)::int from leads where workspace_id = ${ws}) as leads,
      (select count(*)::int from emails where workspace_id = ${ws}) as emails,
      (select count(*)::int from emails where workspace_id = ${ws} and lead_id is null) as "emailsWithoutLead",
      (select count(*)::int from campaigns where workspace_id = ${ws}) as campaigns,
      (select count(*)::int from campaign_leads where workspace_id = ${ws}) as "campaignLeads",
      (select count(*)::int from email_events where workspace_id = ${ws}) as "emailEvents",
      (select count(*)::int from lead_events where workspace_id = ${ws}) as "leadEvents",
      (select count(*)::int from lead_tags where workspace_id = ${ws}) as "leadTags",
      (select count(*)::int from replies where workspace_id = ${ws}) as replies,
      (select coalesce(sum(n), 0)::int from analytics_lead_counts where workspace_id = ${ws}) as "totalLeads",
      (select coalesce(sum(sent), 0)::int from analytics_rollups where workspace_id = ${ws} and span = 0) as sent,
      (select coalesce(sum(replied), 0)::int from analytics_rollups where workspace_id = ${ws} and span = 0) as replied,
      (select count(*)::int from analytics_lead_last where workspace_id = ${ws}) as "leadLast"`;
  return r;
}

/** Puts back leads [from, to) after a delete: their rows again, and their kept emails pointed at them. */
export async function reseedLeads(pg: postgres.Sql, w: World, from: number, to: number): Promise<void> {
  await seedLeads(pg, w, from, to);
  await pg`update emails e set lead_id = l.id from leads l
    where l.workspace_id = ${w.workspaceId} and l.id = any(${Array.from({ length: to - from }, (_, i) => leadId(w, from + i))}::text[])
      and e.workspace_id = ${w.workspaceId} and e.lead_email = l.email and e.lead_id is null`;
}
