/**
 * Pieces of bench:analytics shared with bench:scale's leads and analytics parts: the sending world of
 * a workspace (domains, mailboxes, campaigns), the raw-row counts the rollup reads are checked against,
 * and leads.csv timed beside COPY (…) TO STDOUT of the same rows.
 */
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type postgres from "postgres";
import { elapsedMs } from "./bench-util";

export const CAMPAIGNS = 20;
export const MAILBOXES = 40;
export const DOMAINS = 8;

/** `n` domains, 5n mailboxes and `campaigns` ACTIVE campaigns (every other one tracking clicks) of the workspace. */
export async function seedSenders(
  sql: postgres.Sql,
  ws: string,
  tag: string,
  n = { domains: DOMAINS, mailboxes: MAILBOXES, campaigns: CAMPAIGNS },
) {
  const { newId } = await import("../lib/ids");
  const { encryptSecret } = await import("../lib/crypto/secretbox");
  const domains = Array.from({ length: n.domains }, (_, i) => ({ id: newId("dom"), workspace_id: ws, domain: `d${i}-${tag}.bench` }));
  await sql`insert into domains ${sql(domains)}`;
  const sealed = encryptSecret("unused");
  const mailboxes = Array.from({ length: n.mailboxes }, (_, i) => ({
    id: newId("mbx"),
    workspace_id: ws,
    domain_id: domains[i % n.domains].id,
    email: `m${i}@${domains[i % n.domains].domain}`,
    provider: "CUSTOM",
    smtp_host: "127.0.0.1",
    smtp_port: 1,
    smtp_security: "NONE",
    smtp_username: "u",
    smtp_password_enc: sealed,
    imap_host: "127.0.0.1",
    imap_port: 1,
    imap_security: "NONE",
    imap_username: "u",
    imap_password_enc: sealed,
    daily_send_cap: 50,
  }));
  await sql`insert into mailboxes ${sql(mailboxes)}`;
  const campaigns = Array.from({ length: n.campaigns }, (_, i) => ({
    id: newId("cmp"),
    workspace_id: ws,
    name: `Campaign ${i}`,
    status: "ACTIVE",
    track_opens: true,
    track_clicks: i % 2 === 0,
  }));
  if (campaigns.length) await sql`insert into campaigns ${sql(campaigns)}`;
  return { mailboxes: mailboxes.map((m) => m.id), campaigns: campaigns.map((c) => c.id) };
}

/**
 * The counts of the campaigns (all, or `campaignIds`) and the overview of [from, to), counted plainly
 * on the raw rows: COUNT and COUNT(DISTINCT …).
 */
export async function rawCounts(sql: postgres.Sql, ws: string, from: Date, to: Date, campaignIds?: string[]) {
  const only = campaignIds ? sql`and e.campaign_id = any(${campaignIds})` : sql``;
  const perCampaign = await sql`
    select e.campaign_id as id, count(*) filter (where status in ('SENT','BOUNCED'))::int as sent,
      count(distinct lead_email) filter (where status in ('SENT','BOUNCED'))::int as contacted,
      count(*) filter (where status = 'BOUNCED')::int as bounced,
      count(distinct lead_email) filter (where opened_at is not null)::int as opened,
      count(distinct lead_email) filter (where clicked_at is not null)::int as clicked,
      (select count(distinct r.lead_id) from replies r where r.campaign_id = e.campaign_id and not r.is_auto_reply and r.lead_id is not null)::int as replied
    from emails e where e.workspace_id = ${ws} and e.campaign_id is not null ${only} group by e.campaign_id`;
  const [o] = await sql`
    select
      (select count(*) from emails where workspace_id = ${ws} and campaign_id is not null and status in ('SENT','BOUNCED') and created_at >= ${from} and created_at < ${to})::int as sent,
      (select count(distinct lead_email) from emails where workspace_id = ${ws} and campaign_id is not null and status in ('SENT','BOUNCED') and created_at >= ${from} and created_at < ${to})::int as contacted,
      (select count(distinct lead_email) from emails where workspace_id = ${ws} and campaign_id is not null and opened_at >= ${from} and opened_at < ${to})::int as opened,
      (select count(distinct lead_id) from replies where workspace_id = ${ws} and campaign_id is not null and lead_id is not null and not is_auto_reply and received_at >= ${from} and received_at < ${to})::int as replied,
      (select count(*) from emails where workspace_id = ${ws} and campaign_id is not null and status = 'BOUNCED' and created_at >= ${from} and created_at < ${to})::int as bounced`;
  return { perCampaign, overview: o };
}

/** Throws when a figure the API gave differs from the raw rows' count. */
export function check(what: string, got: Record<string, number>, want: Record<string, number>) {
  for (const [k, w] of Object.entries(want)) {
    if (got[k] !== w) throw new Error(`${what}: ${k} is ${got[k]}, the raw rows say ${w}`);
  }
}

/** The campaign list's rows against rawCounts' per-campaign numbers (a mismatch throws). */
export function checkCampaignList(rows: Record<string, number & string>[], perCampaign: postgres.RowList<postgres.Row[]>) {
  for (const w of perCampaign) {
    const c = rows.find((r) => r.id === w.id);
    if (!c) throw new Error(`campaign ${w.id} is missing from the list`);
    check(`campaign ${w.id}`, c, { sentCount: w.sent, leadsContacted: w.contacted, bouncedCount: w.bounced, openedCount: w.opened });
    check(`campaign ${w.id}`, c, { clickedCount: w.clicked, repliedCount: w.replied });
  }
}

/** The overview's numbers against rawCounts' (a mismatch throws). */
export function checkOverview(o: Record<string, number>, w: postgres.Row) {
  check("overview", o, {
    totalSent: w.sent,
    leadsContacted: w.contacted,
    totalOpened: w.opened,
    totalReplied: w.replied,
    totalBounced: w.bounced,
  });
}

/** COPY (the columns leads.csv writes, of the tag's leads in `seq` order) TO STDOUT, read to the end. */
export async function copyTaggedLeadsMs(sql: postgres.Sql, ws: string, tagId: string): Promise<{ ms: number; bytes: number }> {
  const start = process.hrtime.bigint();
  let bytes = 0;
  const out = await sql
    .unsafe(`copy (select l.id, l.email, l.first_name, l.last_name, l.company_name, l.company_domain, l.phone_number, l.job_title,
      l.timezone, l.verification_status, l.esp_class, l.created_at, l.custom_fields from leads l
      where l.workspace_id = '${ws}' and exists (select 1 from lead_tags t where t.lead_id = l.id and t.tag_id = '${tagId}') order by l.seq)
      to stdout with (format csv)`)
    .readable();
  await pipeline(
    out,
    new Writable({
      write(c, _e, cb) {
        bytes += c.length;
        cb();
      },
    }),
  );
  return { ms: elapsedMs(start), bytes };
}

/**
 * One run of leads.csv against COPY: an ABBA block (COPY, leads.csv, leads.csv, COPY), so neither side
 * always runs first or on the other's warm cache. The figure is total COPY time ÷ total leads.csv time.
 */
export async function csvVsCopyRun(
  copy: () => Promise<{ ms: number; bytes: number }>,
  csv: () => Promise<{ ms: number; chars: number }>,
): Promise<{ ratio: number; copyMs: number[]; csvMs: number[]; bytes: number; chars: number }> {
  const a1 = await copy();
  const b1 = await csv();
  const b2 = await csv();
  const a2 = await copy();
  return { ratio: (a1.ms + a2.ms) / (b1.ms + b2.ms), copyMs: [a1.ms, a2.ms], csvMs: [b1.ms, b2.ms], bytes: a1.bytes, chars: b1.chars };
}

/** A GET through a route handler with the API key, timed from the call to the last byte; anything but 200 throws. */
export function timedGetter(key: string) {
  return async (handler: (r: Request) => Promise<Response>, path: string) => {
    const start = process.hrtime.bigint();
    const res = await handler(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } }));
    const text = await res.text();
    const ms = elapsedMs(start);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return { ms, text };
  };
}
