/**
 * bench:scale's leads part: one workspace grown to 1,000,000 and then 5,000,000 leads (× BENCH_SCALE),
 * seeded with INSERT … SELECT over generate_series, and at each size:
 *
 *  - POST /leads of 1,000 (10% merges, as bench:leads) through the route handler vs COPY FROM STDIN of
 *    the same rows into another workspace of the same table: leads/s ÷ leads/s, ≥ 0.5;
 *  - GET /leads page 1, and a search (?q= one address's local part, a different lead each request):
 *    p95 of sequential requests ≤ 100 ms;
 *  - 100,000 leads added to a fresh campaign (10 mailboxes in its pool) in calls of 1,000 through
 *    POST /campaigns/<id>/leads: ≤ 30 s;
 *  - leads.csv of a tag's 50,000 leads vs COPY (the same columns) TO STDOUT, as bench:analytics: ≥ 0.5.
 *
 * Checks: every POST's created/updated counts, GET's total against COUNT(*), each search finding its
 * one lead, every lead added, the CSV's row count. `npm run bench:scale:leads` runs it on its own.
 */
import { csvVsCopyRun, copyTaggedLeadsMs, seedSenders } from "./bench-analytics-shared";
import { BATCH, batch, EXISTING_PER_BATCH, seedLeadsSql, toCopy } from "./bench-leads-rows";
import { type Check, type Curve, type Part, scaled, type Target, target } from "./bench-scale-types";
import { isMain, runPartStandalone } from "./bench-scale-standalone";
import { benchWorkspace, copyLeads, elapsedMs, fullApiKey, median, percentile, startBenchEnvironment } from "./bench-util";

const SIZES = [1_000_000, 5_000_000];
const ROUNDS = 4; // POST rounds per side per run
const WARM_ROUNDS = 2;
const GET_REQUESTS = 40;
const SEED_CHUNK = 250_000;
const POST_LIMIT = 0.5;
const GET_LIMIT_MS = 100;
const ADD_LIMIT_S = 30;
const CSV_LIMIT = 0.5;

type Route = (req: Request, ctx?: { params: Promise<Record<string, string>> }) => Promise<Response>;

export const leadsScalePart: Part = async ({ scale, runs, log }) => {
  const sizes = [...new Set(SIZES.map((s) => scaled(s, scale, 20_000)))];
  const addN = scaled(100_000, scale, 1000);
  const csvN = scaled(50_000, scale, 1000);
  const env = await startBenchEnvironment("bench:scale leads", { env: { RATE_LIMIT_API_KEY: "1000000000" }, sqlNoDelay: true });
  const checks: Check[] = [];
  const targets: Target[] = [];
  const rows: (string | number)[][] = [];
  try {
    const { newId } = await import("../lib/ids");
    const leadsRoute = await import("../app/api/v1/leads/route");
    const addRoute = await import("../app/api/v1/campaigns/[id]/leads/route");
    const csvRoute = await import("../app/api/v1/reports/leads.csv/route");
    const db = env.dbm.getDb();
    const sql = env.sql;
    const ws = await benchWorkspace(db, "scale");
    const wsCopy = await benchWorkspace(db, "copy", { email: "copy@example.com" });
    const key = await fullApiKey(db, ws);
    const senders = await seedSenders(sql, ws.workspaceId, "scale", { domains: 2, mailboxes: 10, campaigns: 0 });
    const call = async (route: Route, method: string, path: string, body?: unknown, params?: Record<string, string>) => {
      const start = process.hrtime.bigint();
      const res = await route(
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        }),
        params ? { params: Promise.resolve(params) } : undefined,
      );
      const text = await res.text();
      const ms = elapsedMs(start);
      if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return { ms, text };
    };

    let seeded = 0;
    let round = 0;
    let campaignNo = 0;
    for (const size of sizes) {
      // --- Seed up to `size` (the POST rounds' new leads count towards it). ---
      const t = process.hrtime.bigint();
      const [{ n: have }] = await sql`select count(*)::int as n from leads where workspace_id = ${ws.workspaceId}`;
      for (let k = seeded; k < seeded + (size - have); k += SEED_CHUNK) {
        const to = Math.min(seeded + (size - have), k + SEED_CHUNK);
        await seedLeadsSql(sql, ws.workspaceId, "s", k, to);
        log(`seeded ${to.toLocaleString("en-US")} leads`);
      }
      seeded += size - have;
      await sql`vacuum analyze leads`;
      const seedS = elapsedMs(t) / 1000;
      log(`${size.toLocaleString("en-US")} leads: seeding took ${seedS.toFixed(1)} s`);
      const at = `@${size.toLocaleString("en-US")}`;

      // --- POST /leads vs COPY ---
      const postRound = async () => {
        const leads = batch(round);
        const body = JSON.stringify({ leads });
        const api = async () => {
          const { ms, text } = await call(leadsRoute.POST, "POST", "/leads", body);
          const r = JSON.parse(text) as { created: number; updated: number };
          if (r.created !== BATCH - EXISTING_PER_BATCH || r.updated !== EXISTING_PER_BATCH) {
            throw new Error(`POST /leads round ${round}: created ${r.created}, updated ${r.updated}`);
          }
          return ms;
        };
        const copy = async () => {
          const start = process.hrtime.bigint();
          const now = new Date();
          await copyLeads(
            sql,
            leads.map((l) => toCopy(newId, wsCopy.workspaceId, l, now)),
          );
          return elapsedMs(start);
        };
        const first = round % 2 === 0;
        const a = first ? await api() : 0;
        const c = await copy();
        const a2 = first ? a : await api();
        round++;
        return { a: a2, c };
      };
      for (let i = 0; i < WARM_ROUNDS; i++) await postRound();
      const postRuns: number[] = [];
      const apiMs: number[] = [];
      const copyMs: number[] = [];
      for (let r = 0; r < runs; r++) {
        const a: number[] = [];
        const c: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const x = await postRound();
          a.push(x.a);
          c.push(x.c);
        }
        apiMs.push(...a);
        copyMs.push(...c);
        postRuns.push(median(c) / median(a));
        log(`POST ${at} run ${r + 1}: API ${a.map((x) => x.toFixed(0)).join("/")} ms, COPY ${c.map((x) => x.toFixed(0)).join("/")} ms`);
      }
      targets.push(target(`POST /leads ÷ COPY ${at}`, "ratio", ">=", POST_LIMIT, postRuns));
      checks.push({
        name: `POST /leads counts ${at}`,
        ok: true,
        detail: `${runs * ROUNDS + WARM_ROUNDS} calls of 900 created, 100 merged`,
      });

      // --- GET /leads page 1 and ?q= ---
      const [{ n: total }] = await sql`select count(*)::int as n from leads where workspace_id = ${ws.workspaceId}`;
      await call(leadsRoute.GET, "GET", "/leads?page=1&limit=50");
      const getRuns: number[] = [];
      const qRuns: number[] = [];
      let totalOk = true;
      let searchOk = true;
      for (let r = 0; r < runs; r++) {
        const lat: number[] = [];
        const qlat: number[] = [];
        for (let i = 0; i < GET_REQUESTS; i++) {
          const g = await call(leadsRoute.GET, "GET", "/leads?page=1&limit=50");
          const body = JSON.parse(g.text) as { total: number; leads: unknown[] };
          if (body.total !== total || body.leads.length !== 50) totalOk = false;
          lat.push(g.ms);
          const k = Math.floor(((r * GET_REQUESTS + i + 0.5) / (runs * GET_REQUESTS)) * seeded);
          const q = await call(leadsRoute.GET, "GET", `/leads?page=1&limit=50&q=${encodeURIComponent(`seed-${k}@`)}`);
          const qb = JSON.parse(q.text) as { total: number; leads: { id: string }[] };
          if (qb.total !== 1 || qb.leads[0]?.id !== `lead_s_${k}`) searchOk = false;
          qlat.push(q.ms);
        }
        getRuns.push(percentile(lat, 95));
        qRuns.push(percentile(qlat, 95));
        log(`GET ${at} run ${r + 1}: page 1 p95 ${percentile(lat, 95).toFixed(1)} ms, ?q= p95 ${percentile(qlat, 95).toFixed(1)} ms`);
      }
      targets.push(target(`GET /leads page 1 p95 ${at}`, "ms", "<=", GET_LIMIT_MS, getRuns));
      targets.push(target(`GET /leads ?q= p95 ${at}`, "ms", "<=", GET_LIMIT_MS, qRuns));
      checks.push({ name: `GET /leads total is COUNT(*) ${at}`, ok: totalOk, detail: `${total}` });
      checks.push({ name: `each ?q= finds its one lead ${at}`, ok: searchOk });

      // --- 100,000 leads into a fresh campaign, 1,000 per call ---
      const addRuns: number[] = [];
      let addOk = true;
      for (let r = 0; r < runs; r++) {
        const cmp = newId("cmp");
        await sql`insert into campaigns (id, workspace_id, name, status) values (${cmp}, ${ws.workspaceId}, ${`Scale ${campaignNo++}`}, 'DRAFT')`;
        await sql`insert into campaign_mailboxes (workspace_id, campaign_id, mailbox_id)
          select ${ws.workspaceId}, ${cmp}, m from unnest(${senders.mailboxes}::text[]) m`;
        const first = (r * addN) % Math.max(1, seeded - addN);
        const start = process.hrtime.bigint();
        let added = 0;
        for (let i = 0; i < addN; i += 1000) {
          const ids = Array.from({ length: Math.min(1000, addN - i) }, (_, j) => `lead_s_${first + i + j}`);
          const { text } = await call(addRoute.POST, "POST", `/campaigns/${cmp}/leads`, { leadIds: ids }, { id: cmp });
          added += (JSON.parse(text) as { added: number }).added;
        }
        const s = elapsedMs(start) / 1000;
        if (added !== addN) addOk = false;
        addRuns.push(s);
        log(`add ${addN.toLocaleString("en-US")} to a campaign ${at} run ${r + 1}: ${s.toFixed(2)} s`);
      }
      targets.push(target(`add ${addN.toLocaleString("en-US")} leads to a campaign ${at}`, "s", "<=", ADD_LIMIT_S, addRuns));
      checks.push({ name: `every lead added to the campaign ${at}`, ok: addOk });

      // --- leads.csv of a tag's leads vs COPY TO STDOUT ---
      const tagId = `tag_csv_${rows.length}`;
      await sql`insert into tags (id, workspace_id, name) values (${tagId}, ${ws.workspaceId}, ${tagId})`;
      await sql`insert into lead_tags (workspace_id, lead_id, tag_id)
        select ${ws.workspaceId}, 'lead_s_' || k, ${tagId} from generate_series(0, ${csvN - 1}) k`;
      await sql`analyze lead_tags`;
      let csvOk = true;
      const csv = async () => {
        const { ms, text } = await call(csvRoute.GET, "GET", `/reports/leads.csv?tagId=${tagId}`);
        if (text.split("\r\n").length - 2 !== csvN) csvOk = false;
        return { ms, chars: text.length };
      };
      await csv();
      const csvRuns: number[] = [];
      for (let r = 0; r < runs; r++) {
        const x = await csvVsCopyRun(() => copyTaggedLeadsMs(sql, ws.workspaceId, tagId), csv);
        csvRuns.push(x.ratio);
        log(
          `leads.csv ${at} run ${r + 1}: COPY ${x.copyMs.map((m) => m.toFixed(0)).join("+")} ms, CSV ${x.csvMs.map((m) => m.toFixed(0)).join("+")} ms`,
        );
      }
      targets.push(target(`leads.csv ÷ COPY TO STDOUT ${at}`, "ratio", ">=", CSV_LIMIT, csvRuns));
      checks.push({ name: `leads.csv holds the tag's ${csvN.toLocaleString("en-US")} leads ${at}`, ok: csvOk });

      const m = (xs: number[]) => Math.round(median(xs) * 1000) / 1000;
      rows.push([size, round1(seedS), m(postRuns), round1(median(apiMs)), round1(median(copyMs)), m(getRuns), m(qRuns), m(addRuns)]);
      rows[rows.length - 1].push(round1((median(addRuns) * 1000 * 1000) / addN), m(csvRuns));
    }
    const curves: Curve[] = [
      {
        title: "Leads at scale (one workspace; medians of the runs)",
        columns: [
          "leads",
          "seed s",
          "POST÷COPY",
          "POST ms/1,000",
          "COPY ms/1,000",
          "GET p95 ms",
          "?q= p95 ms",
          `add ${addN} s`,
          "add ms/1,000",
          "csv÷COPY",
        ],
        rows,
      },
    ];
    return { part: "leads", curves, targets, checks, figures: { addLeads: addN, csvLeads: csvN, getRequestsPerRun: GET_REQUESTS } };
  } finally {
    await env.close();
  }
};

const round1 = (n: number) => Math.round(n * 10) / 10;

if (isMain(import.meta.url)) runPartStandalone("bench:scale:leads", leadsScalePart);
