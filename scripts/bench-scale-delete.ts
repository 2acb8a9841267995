/**
 * bench:scale's deleting part (`npm run bench:scale:delete` runs it alone): a workspace of 1,000,000
 * leads and 5,000,000 emails (× BENCH_SCALE) in ten campaigns of 100,000, and a second workspace of
 * the same size to delete whole (scripts/bench-scale-delete-world.ts seeds both with generate_series).
 * Judged, each over BENCH_RUNS runs, the world put back between runs:
 *   - deleting 1,000 leads as POST /leads/bulk-delete does (bulkDeleteLeads): ≤ 2 s;
 *   - deleting a campaign with deleteLeads=true (deleteCampaign, a dashboard session), its 100,000
 *     leads in no other campaign: ≤ 60 s;
 *   - deleting the second workspace (`delete from workspaces`, its cascades and triggers): ≤ 120 s.
 * After each delete the counts are checked exact, table by table, and the other workspace untouched.
 */
import type postgres from "postgres";
import { elapsedMs, fmt, intEnv, runBench, say, startBenchEnvironment, benchWorkspace, type BenchEnvironment } from "./bench-util";
import { scaled, target, type Check, type Part, type PartResult } from "./bench-scale-types";
import {
  CAMPAIGNS,
  EMAILS_PER_LEAD,
  campaignId,
  countsOf,
  leadId,
  perCampaign,
  reseedLeads,
  seedCampaign,
  seedEmails,
  seedFrame,
  seedLeads,
  type World,
} from "./bench-scale-delete-world";

const LIMITS = { leads: 2, campaign: 60, workspace: 120 };
const BULK = 1_000;

type Counts = Record<string, number>;

function sameExcept(name: string, before: Counts, after: Counts, expect: Partial<Counts>): Check {
  const wrong = Object.keys(before)
    .map((k) => [k, k in expect ? expect[k]! : before[k], after[k]] as const)
    .filter(([, want, got]) => want !== got)
    .map(([k, want, got]) => `${k} ${got} (expected ${want})`);
  return { name, ok: wrong.length === 0, detail: wrong.length ? wrong.join(", ") : undefined };
}

async function seedWorld(pg: postgres.Sql, w: World, pwdEnc: string, log: (l: string) => void): Promise<void> {
  const t0 = process.hrtime.bigint();
  await seedFrame(pg, w, pwdEnc);
  await seedLeads(pg, w, 0, w.leads);
  await seedEmails(pg, w, 0, w.leads);
  await pg`vacuum analyze`;
  log(`  seeded ${w.tag}: ${fmt(w.leads)} leads, ${fmt(w.leads * EMAILS_PER_LEAD)} emails in ${fmt(elapsedMs(t0) / 1000, 1)} s`);
}

interface Setup {
  env: BenchEnvironment;
  a: World;
  b: World;
  userId: string;
  pwdEnc: string;
}

/** Run i deletes 1,000 leads of the last campaign (they were emailed, replied, tagged), then puts them back. */
async function deleteLeadsRun(s: Setup, i: number, checks: Check[], log: (l: string) => void): Promise<number> {
  const { bulkDeleteLeads } = await import("../lib/leads/update-leads");
  const { systemCtx } = await import("../lib/ctx");
  const { a, b, env } = s;
  const from = a.leads - BULK * (i + 1);
  const ids = Array.from({ length: BULK }, (_, j) => leadId(a, from + j));
  const [beforeA, beforeB] = [await countsOf(env.sql, a.workspaceId), await countsOf(env.sql, b.workspaceId)];
  const ctx = { ...systemCtx(a.workspaceId), actor: { type: "session" as const, userId: s.userId, role: "owner" as const } };
  const t0 = process.hrtime.bigint();
  const r = await bulkDeleteLeads(ctx, ids);
  const ms = elapsedMs(t0);
  const afterA = await countsOf(env.sql, a.workspaceId);
  const lost = (n: number, every: number) => Math.floor((from + n - 1) / every) - Math.floor((from - 1) / every);
  checks.push(
    { name: `leads run ${i + 1}: ${BULK} deleted`, ok: r.deleted === BULK && r.notFound === 0, detail: JSON.stringify(r) },
    sameExcept(`leads run ${i + 1}: workspace counts`, beforeA, afterA, {
      leads: beforeA.leads - BULK,
      totalLeads: beforeA.totalLeads - BULK,
      emailsWithoutLead: beforeA.emailsWithoutLead + BULK * EMAILS_PER_LEAD,
      campaignLeads: beforeA.campaignLeads - BULK,
      leadEvents: beforeA.leadEvents - BULK,
      leadTags: beforeA.leadTags - lost(BULK, 4),
      replies: beforeA.replies - lost(BULK, 20),
      replied: beforeA.replied - lost(BULK, 20),
      leadLast: afterA.leadLast, // the replied leads' last reply goes with them
    }),
    sameExcept(`leads run ${i + 1}: other workspace untouched`, beforeB, await countsOf(env.sql, b.workspaceId), {}),
  );
  log(`  delete ${BULK} leads, run ${i + 1}: ${fmt(ms / 1000, 3)} s`);
  await reseedLeads(env.sql, a, from, from + BULK);
  return ms / 1000;
}

/** Run i deletes campaign 0 with deleteLeads=true (its leads are in no other campaign), then puts it back. */
async function deleteCampaignRun(s: Setup, i: number, checks: Check[], log: (l: string) => void): Promise<number> {
  const { deleteCampaign } = await import("../lib/campaigns/campaigns");
  const { systemCtx } = await import("../lib/ctx");
  const { a, b, env } = s;
  const n = perCampaign(a);
  const [beforeA, beforeB] = [await countsOf(env.sql, a.workspaceId), await countsOf(env.sql, b.workspaceId)];
  const ctx = { ...systemCtx(a.workspaceId), actor: { type: "session" as const, userId: s.userId, role: "owner" as const } };
  const t0 = process.hrtime.bigint();
  const r = await deleteCampaign(ctx, campaignId(a, 0), true);
  const ms = elapsedMs(t0);
  const afterA = await countsOf(env.sql, a.workspaceId);
  const every = (k: number) => Math.floor((n - 1) / k) + 1;
  checks.push(
    { name: `campaign run ${i + 1}: leads deleted`, ok: r.leadsDeleted === n && r.leadsKept === 0, detail: JSON.stringify(r) },
    sameExcept(`campaign run ${i + 1}: workspace counts`, beforeA, afterA, {
      leads: beforeA.leads - n,
      totalLeads: beforeA.totalLeads - n,
      campaigns: beforeA.campaigns - 1,
      emailsWithoutLead: beforeA.emailsWithoutLead + n * EMAILS_PER_LEAD,
      campaignLeads: beforeA.campaignLeads - n,
      leadEvents: beforeA.leadEvents - n,
      leadTags: beforeA.leadTags - every(4),
      replies: beforeA.replies - every(20),
      replied: beforeA.replied - every(20),
      leadLast: afterA.leadLast,
    }),
    sameExcept(`campaign run ${i + 1}: other workspace untouched`, beforeB, await countsOf(env.sql, b.workspaceId), {}),
  );
  log(`  delete a campaign of ${fmt(n)} leads, run ${i + 1}: ${fmt(ms / 1000, 2)} s`);
  await seedCampaign(env.sql, a, 0);
  await reseedLeads(env.sql, a, 0, n);
  return ms / 1000;
}

/** Run i deletes the second workspace whole, then seeds it again (a new workspace, the same rows). */
async function deleteWorkspaceRun(s: Setup, i: number, checks: Check[], log: (l: string) => void): Promise<number> {
  const { a, b, env } = s;
  const beforeA = await countsOf(env.sql, a.workspaceId);
  const t0 = process.hrtime.bigint();
  await env.sql`delete from workspaces where id = ${b.workspaceId}`;
  const ms = elapsedMs(t0);
  const leftB = await countsOf(env.sql, b.workspaceId);
  const [rest] = await env.sql<{ n: number }[]>`select
      (select count(*) from analytics_rollups where workspace_id = ${b.workspaceId}) + (select count(*) from analytics_campaign_marks where workspace_id = ${b.workspaceId})
      + (select count(*) from mailboxes where workspace_id = ${b.workspaceId}) + (select count(*) from memberships where workspace_id = ${b.workspaceId}) as n`;
  const nonZero = Object.entries(leftB).filter(([, v]) => v !== 0);
  checks.push(
    {
      name: `workspace run ${i + 1}: nothing of it left`,
      ok: nonZero.length === 0 && Number(rest.n) === 0,
      detail: JSON.stringify({ ...Object.fromEntries(nonZero), rest: rest.n }),
    },
    sameExcept(`workspace run ${i + 1}: other workspace untouched`, beforeA, await countsOf(env.sql, a.workspaceId), {}),
  );
  log(`  delete a workspace of ${fmt(b.leads)} leads, run ${i + 1}: ${fmt(ms / 1000, 2)} s`);
  if (i + 1 < RUNS_LEFT.n) {
    const ws = await benchWorkspace(env.dbm.getDb(), `Deleted ${i + 2}`, { email: `bench-b${i + 2}@example.com` });
    s.b = { ...b, workspaceId: ws.workspaceId };
    await seedWorld(env.sql, s.b, s.pwdEnc, log);
  }
  return ms / 1000;
}
const RUNS_LEFT = { n: 0 };

export const deleteScalePart: Part = async (opts) => {
  const leads = Math.max(CAMPAIGNS * BULK * 4, scaled(1_000_000, opts.scale));
  const env = await startBenchEnvironment("bench:scale delete");
  try {
    const { encryptSecret } = await import("../lib/crypto/secretbox");
    const pwdEnc = encryptSecret("bench-password");
    const wa = await benchWorkspace(env.dbm.getDb(), "Kept");
    const wb = await benchWorkspace(env.dbm.getDb(), "Deleted 1", { email: "bench-b1@example.com" });
    const s: Setup = {
      env,
      a: { tag: "a", workspaceId: wa.workspaceId, leads },
      b: { tag: "b", workspaceId: wb.workspaceId, leads },
      userId: wa.userId,
      pwdEnc,
    };
    await seedWorld(env.sql, s.a, pwdEnc, opts.log);
    await seedWorld(env.sql, s.b, pwdEnc, opts.log);
    const checks: Check[] = [];
    const times = { leads: [] as number[], campaign: [] as number[], workspace: [] as number[] };
    RUNS_LEFT.n = opts.runs;
    for (let i = 0; i < opts.runs; i++) times.leads.push(await deleteLeadsRun(s, i, checks, opts.log));
    for (let i = 0; i < opts.runs; i++) times.campaign.push(await deleteCampaignRun(s, i, checks, opts.log));
    for (let i = 0; i < opts.runs; i++) times.workspace.push(await deleteWorkspaceRun(s, i, checks, opts.log));
    return result(s, times, checks);
  } finally {
    await env.close();
  }
};

function result(s: Setup, times: Record<"leads" | "campaign" | "workspace", number[]>, checks: Check[]): PartResult {
  const n = perCampaign(s.a);
  const targets = [
    target(`delete ${fmt(BULK)} leads (bulk-delete)`, "s", "<=", LIMITS.leads, times.leads),
    target(`delete a campaign of ${fmt(n)} leads, deleteLeads=true`, "s", "<=", LIMITS.campaign, times.campaign),
    target(`delete a workspace of ${fmt(s.a.leads)} leads`, "s", "<=", LIMITS.workspace, times.workspace),
  ];
  const med = (k: keyof typeof times) => targets[["leads", "campaign", "workspace"].indexOf(k)].median;
  return {
    part: "delete",
    curves: [
      {
        title: `Deleting, in a world of ${fmt(s.a.leads)} leads and ${fmt(s.a.leads * EMAILS_PER_LEAD)} emails per workspace (median of runs)`,
        columns: ["delete", "leads", "s", "ms per 1,000 leads"],
        rows: [
          ["bulk-delete", BULK, round(med("leads")), round((med("leads") * 1e6) / BULK)],
          ["campaign, deleteLeads=true", n, round(med("campaign")), round((med("campaign") * 1e6) / n)],
          ["workspace", s.a.leads, round(med("workspace")), round((med("workspace") * 1e6) / s.a.leads)],
        ],
      },
    ],
    targets,
    checks,
    figures: { leadsPerWorkspace: s.a.leads, emailsPerWorkspace: s.a.leads * EMAILS_PER_LEAD },
  };
}
const round = (x: number) => Math.round(x * 1000) / 1000;

if (process.argv[1]?.endsWith("bench-scale-delete.ts")) {
  runBench("bench:scale:delete", async () => {
    const scale = Number(process.env.BENCH_SCALE) > 0 ? Number(process.env.BENCH_SCALE) : 1;
    const r = await deleteScalePart({ scale, runs: intEnv("BENCH_RUNS", 3), log: say });
    for (const c of r.curves) {
      say(`\n${c.title}\n${c.columns.join(" | ")}`);
      for (const row of c.rows) say(row.map((v) => (typeof v === "number" ? fmt(v, 3) : v)).join(" | "));
    }
    say("");
    for (const t of r.targets)
      say(
        `${t.name}: median ${fmt(t.median, 3)} ${t.unit} (${fmt(t.min, 3)}–${fmt(t.max, 3)}), target ${t.cmp} ${t.limit}: ${t.pass ? "PASS" : "BELOW TARGET"}`,
      );
    for (const c of r.checks.filter((x) => !x.ok)) say(`CHECK FAILED ${c.name}: ${c.detail}`);
    say(`${r.checks.filter((c) => c.ok).length}/${r.checks.length} checks ok`);
    say(JSON.stringify(r));
  });
}
