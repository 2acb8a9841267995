/**
 * bench:scale's analytics part: one workspace grown to 5,000,000 and then 20,000,000 campaign emails
 * (× BENCH_SCALE) from 40 mailboxes in 20 campaigns over 90 days to 1,000,000 leads (scaled with the
 * emails), and a second workspace with a tenth as many (a leak would show). Rows come from INSERT …
 * SELECT over generate_series in chunks, each email's fate from a hash of its number as
 * bench:analytics draws it (2% bounced, a third soft; 1% failed; 30% opened, 5% clicked, one
 * email_events row per open and click; person, automatic and positive replies on 3%). The rollups
 * are kept by their own statement triggers, which see each chunk as one statement: set-based SQL,
 * exact by construction, no row-by-row backfill.
 *
 * At each size: GET /analytics/overview (30 days) and GET /campaigns p95 of sequential requests,
 * ≤ 200 ms, every answer checked against COUNT / COUNT(DISTINCT …) on the raw rows for a sample of
 * campaigns and the overview's 30 days. Figures: disk per 1,000,000 sent emails (emails, email_events,
 * replies and the rollups, indexes included, between the two sizes) and the seeding time.
 * `npm run bench:scale:analytics` runs it on its own.
 */
import { checkCampaignList, checkOverview, rawCounts, seedSenders, timedGetter } from "./bench-analytics-shared";
import { isMain, runPartStandalone } from "./bench-scale-standalone";
import { type Check, type Part, scaled, type Target, target } from "./bench-scale-types";
import { benchWorkspace, elapsedMs, fullApiKey, median, percentile, startBenchEnvironment } from "./bench-util";

const SIZES = [5_000_000, 20_000_000];
const LEADS = 1_000_000;
const CHUNK = 500_000;
const REQUESTS = 30;
const SAMPLE_CAMPAIGNS = 3;
const LIMIT_MS = 200;
const NOW = new Date("2026-11-20T12:00:00Z");
const DAY_MS = 86_400_000;
const TABLES = ["emails", "email_events", "replies", "analytics_rollups", "analytics_campaign_marks", "analytics_lead_last"];

type Sql = Awaited<ReturnType<typeof startBenchEnvironment>>["sql"];
type Senders = Awaited<ReturnType<typeof seedSenders>>;

/** Emails j in [from, to) of the workspace, their open/click events and replies: three INSERT … SELECT. */
export async function seedEmails(sql: Sql, ws: string, tag: string, s: Senders, leads: number, from: number, to: number) {
  // h(j, salt) in [0, 1): a multiplicative hash, so every run builds the same rows.
  await sql`
    insert into emails (id, workspace_id, mailbox_id, lead_id, lead_email, campaign_id, step_order, message_id, subject, status,
      bounce_type, created_at, sent_at, opened_at, clicked_at)
    select id, ${ws}, (${s.mailboxes}::text[])[j % ${s.mailboxes.length} + 1], 'lead_' || ${tag} || '_' || lead,
      'l' || lead || '@lead' || (lead % 97) || '.example', (${s.campaigns}::text[])[j % ${s.campaigns.length} + 1], j % 3,
      '<' || id || '@b>', 'Hello', status::email_status,
      case when status = 'BOUNCED' then case when r < 0.0067 then 'SOFT' else 'HARD' end end::bounce_type,
      at, case when status <> 'FAILED' then at end,
      case when opened < ${NOW} then opened end, case when opened < ${NOW} and h3 < 0.17 and opened + interval '1 minute' < ${NOW}
        then opened + interval '1 minute' end
    from (
      select j, 'eml_' || ${tag} || '_' || j as id, r, (((j * 40503 + 7) % 65521) * 1000003 + j) % ${leads} as lead,
        ${NOW}::timestamptz - (h1 * 90) * interval '1 day' as at,
        case when r < 0.02 then 'BOUNCED' when r < 0.03 then 'FAILED' else 'SENT' end as status,
        case when r >= 0.03 and h2 < 0.3 then ${NOW}::timestamptz - (h1 * 90) * interval '1 day' + (h2 * 10) * interval '1 day' end as opened, h3
      from (select j, ((j * 2654435761) % 4294967296) / 4294967296.0 as r, ((j * 40503 + 12345) % 65536) / 65536.0 as h1,
        ((j * 69069 + 1) % 1000003) / 1000003.0 as h2, ((j * 1103515245 + 12345) % 2147483648) / 2147483648.0 as h3
        from generate_series(${from}::bigint, ${to - 1}::bigint) j) g
    ) x
    order by j`;
  const range = sql`e.workspace_id = ${ws} and e.id = any(array(select 'eml_' || ${tag} || '_' || j from generate_series(${from}::bigint, ${to - 1}::bigint) j))`;
  await sql`
    insert into email_events (id, workspace_id, email_id, kind, class, created_at, settled_at)
    select 'eev_' || e.id || '_' || k.kind, e.workspace_id, e.id, k.kind::email_event_kind, 'human', k.at, k.at
    from emails e cross join lateral (values ('OPEN', e.opened_at), ('CLICK', e.clicked_at)) k(kind, at)
    where ${range} and k.at is not null`;
  await sql`
    insert into replies (id, workspace_id, mailbox_id, lead_id, campaign_id, email_id, message_id, received_at, intent, is_auto_reply)
    select 'rep_' || e.id, e.workspace_id, e.mailbox_id, e.lead_id, e.campaign_id, e.id, '<r' || e.id || '@l>',
      least(${NOW}::timestamptz - interval '1 second', e.created_at + interval '2 days'),
      (case when h < 0.009 then 'INTERESTED' when h < 0.015 then 'OUT_OF_OFFICE' else 'QUESTION' end)::reply_intent, h >= 0.009 and h < 0.015
    from (select e.*, ((hashtext(e.id)::bigint + 2147483648) % 1000000) / 1000000.0 as h from emails e where ${range} and e.status = 'SENT') e
    where h < 0.03`;
}

async function diskBytes(sql: Sql): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    const [{ b }] = await sql`select pg_total_relation_size(${t}::regclass)::bigint as b`;
    out[t] = Number(b);
  }
  return out;
}

export const analyticsScalePart: Part = async ({ scale, runs, log }) => {
  const sizes = [...new Set(SIZES.map((s) => scaled(s, scale, 50_000)))];
  const leads = scaled(LEADS, scale, 10_000);
  const env = await startBenchEnvironment("bench:scale analytics", { env: { RATE_LIMIT_API_KEY: "1000000000" } });
  const checks: Check[] = [];
  const targets: Target[] = [];
  const rows: (string | number)[][] = [];
  const disk: { emails: number; sent: number; bytes: Record<string, number> }[] = [];
  try {
    const { ManualClock, useClock } = await import("../lib/clock");
    useClock(new ManualClock(NOW));
    const db = env.dbm.getDb();
    const sql = env.sql;
    const main = await benchWorkspace(db, "main", { email: "main@example.com" });
    const other = await benchWorkspace(db, "other", { email: "other@example.com" });
    const worlds = [
      { ws: main.workspaceId, tag: "a", s: await seedSenders(sql, main.workspaceId, "a"), leads, share: 1 },
      { ws: other.workspaceId, tag: "b", s: await seedSenders(sql, other.workspaceId, "b"), leads: Math.ceil(leads / 10), share: 10 },
    ];
    for (const w of worlds) {
      await sql`insert into leads (id, workspace_id, email, created_at, updated_at)
        select 'lead_' || ${w.tag} || '_' || k, ${w.ws}, 'l' || k || '@lead' || (k % 97) || '.example', ${NOW}, ${NOW}
        from generate_series(0, ${w.leads - 1}) k`;
    }
    const key = await fullApiKey(db, main);
    const list = await import("../app/api/v1/campaigns/route");
    const overview = await import("../app/api/v1/analytics/overview/route");
    const get = timedGetter(key);
    let seeded = 0;
    let seedTotalS = 0;
    const from = new Date(NOW.getTime() - 30 * DAY_MS);
    for (const size of sizes) {
      const t = process.hrtime.bigint();
      for (const w of worlds) {
        const lo = Math.floor(seeded / w.share);
        const hi = Math.floor(size / w.share);
        for (let j = lo; j < hi; j += CHUNK) {
          await seedEmails(sql, w.ws, w.tag, w.s, w.leads, j, Math.min(hi, j + CHUNK));
          if (w.share === 1) log(`seeded ${Math.min(hi, j + CHUNK).toLocaleString("en-US")} emails`);
        }
      }
      seeded = size;
      await sql`vacuum analyze`;
      const seedS = elapsedMs(t) / 1000;
      seedTotalS += seedS;
      const at = `@${size.toLocaleString("en-US")}`;
      log(`${size.toLocaleString("en-US")} emails: seeding took ${seedS.toFixed(1)} s`);
      const [{ sent }] = await sql`select count(*)::int as sent from emails where status in ('SENT', 'BOUNCED')`;
      disk.push({ emails: size, sent, bytes: await diskBytes(sql) });

      // Exactness: a sample of campaigns and the overview's 30 days, counted on the raw rows.
      const sample = worlds[0].s.campaigns.filter((_, i) => i % Math.ceil(worlds[0].s.campaigns.length / SAMPLE_CAMPAIGNS) === 0);
      const tc = process.hrtime.bigint();
      const raw = await rawCounts(sql, main.workspaceId, from, NOW, sample);
      log(`raw counts ${at} (COUNT DISTINCT, ${sample.length} campaigns and 30 days): ${(elapsedMs(tc) / 1000).toFixed(1)} s`);
      await get(list.GET, "/campaigns");
      await get(overview.GET, "/analytics/overview?days=30");
      const lat = { list: [] as number[][], overview: [] as number[][] };
      let listOk = true;
      let overviewOk = true;
      for (let r = 0; r < runs; r++) {
        const l: number[] = [];
        const o: number[] = [];
        for (let i = 0; i < REQUESTS; i++) {
          const a = await get(list.GET, "/campaigns");
          l.push(a.ms);
          const b = await get(overview.GET, "/analytics/overview?days=30");
          o.push(b.ms);
          if (i === 0) {
            try {
              checkCampaignList(JSON.parse(a.text), raw.perCampaign);
            } catch (err) {
              listOk = false;
              log(String(err));
            }
            try {
              checkOverview(JSON.parse(b.text), raw.overview);
            } catch (err) {
              overviewOk = false;
              log(String(err));
            }
          }
        }
        lat.list.push(l);
        lat.overview.push(o);
        log(`${at} run ${r + 1}: /campaigns p95 ${percentile(l, 95).toFixed(1)} ms, overview p95 ${percentile(o, 95).toFixed(1)} ms`);
      }
      const p95s = (xs: number[][]) => xs.map((x) => percentile(x, 95));
      targets.push(target(`GET /analytics/overview (30 days) p95 ${at}`, "ms", "<=", LIMIT_MS, p95s(lat.overview)));
      targets.push(target(`GET /campaigns p95 ${at}`, "ms", "<=", LIMIT_MS, p95s(lat.list)));
      checks.push({ name: `campaign list exact against COUNT(DISTINCT) ${at}`, ok: listOk, detail: `${sample.length} campaigns` });
      checks.push({ name: `overview exact against COUNT(DISTINCT) ${at}`, ok: overviewOk, detail: "30 days" });
      const m = (xs: number[]) => Math.round(median(xs) * 10) / 10;
      rows.push([size, Math.round(seedS), m(p95s(lat.list)), m(p95s(lat.overview)), m(lat.list.flat()), m(lat.overview.flat())]);
    }
    const sum = (b: Record<string, number>) => Object.values(b).reduce((a, x) => a + x, 0);
    const first = disk[0];
    const last = disk[disk.length - 1];
    const perMillion = (b0: number, b1: number, n0: number, n1: number) => Math.round(((b1 - b0) / Math.max(1, n1 - n0)) * 1e6);
    const diskPerMillionSent =
      disk.length > 1
        ? perMillion(sum(first.bytes), sum(last.bytes), first.sent, last.sent)
        : perMillion(0, sum(first.bytes), 0, first.sent);
    const byTable = Object.fromEntries(
      TABLES.map((t) => [
        t,
        disk.length > 1 ? perMillion(first.bytes[t], last.bytes[t], first.sent, last.sent) : perMillion(0, first.bytes[t], 0, first.sent),
      ]),
    );
    return {
      part: "analytics",
      curves: [
        {
          title: "Analytics at scale (medians of the runs; both workspaces' rows in the tables)",
          columns: ["emails", "seed s", "/campaigns p95 ms", "overview p95 ms", "/campaigns p50 ms", "overview p50 ms"],
          rows,
        },
        {
          title: "Disk (pg_total_relation_size, indexes included), bytes",
          columns: ["emails (main)", "sent (all)", ...TABLES, "total"],
          rows: disk.map((d) => [d.emails, d.sent, ...TABLES.map((t) => d.bytes[t]), sum(d.bytes)]),
        },
      ],
      targets,
      checks,
      figures: {
        diskBytesPerMillionSent: diskPerMillionSent,
        diskBytesPerMillionSentByTable: byTable,
        seedingSeconds: Math.round(seedTotalS),
        leads,
      },
    };
  } finally {
    await env.close();
  }
};

if (isMain(import.meta.url)) runPartStandalone("bench:scale:analytics", analyticsScalePart);
