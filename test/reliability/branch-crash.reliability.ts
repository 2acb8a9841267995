import type { ChildProcess } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as CREATE_SUB } from "../../app/api/v1/campaigns/[id]/subsequences/route";
import { PUT as PUT_STEPS } from "../../app/api/v1/campaigns/[id]/steps/route";
import { POST as CREATE_TAG } from "../../app/api/v1/tags/route";
import { selectRows } from "../../db/bulk";
import { getDb } from "../../db/client";
import { campaignLeads, emails, leadBranches, leadEvents, leadTags, replies } from "../../db/schema";
import { systemCtx } from "../../lib/ctx";
import { newId } from "../../lib/ids";
import type { CrashPoint } from "../../lib/jobs/crash-point";
import { createWebhook } from "../../lib/webhooks/webhooks";
import { connectMailboxes, launchCampaign, mailSuite, workspaceEvents } from "../campaign-setup";
import { call } from "../helpers";
import { killWorker, startWorker } from "../worker";
import { FAST, figure } from "./figures";

/**
 * `kill -9` of the worker at three points of a branch decision, REPEAT times each — after the decision
 * is computed (before its transaction), inside the transaction (the lead_branches row and the lead's
 * move written, not committed) and after the commit — then one worker decides the rest and sends the
 * subsequence's first step. Each lead replied (INTERESTED → subsequence, NOT_INTERESTED → stop,
 * QUESTION → tag), so every decision is due at once. Every decision is applied exactly once: one
 * lead_branches row per (campaign, lead, step), one timeline entry, one `lead.branched` event, the
 * lead moved once, the tag once, and the subsequence's first step sent once.
 */
const REPEAT = FAST ? 3 : 10;
const POINTS: CrashPoint[] = ["branch:after-decide", "branch:during-effect", "branch:after-effect"];
/** Leads per action; the after-effect kills each commit one decision, so more leads than that. */
const PER_ACTION = FAST ? 4 : 12;
const ACTIONS = ["subsequence", "stop", "tag"] as const;
const INTENT = { subsequence: "INTERESTED", stop: "NOT_INTERESTED", tag: "QUESTION" } as const;

const suite = mailSuite({ domain: "bcrash.test", users: { "a@bcrash.test": "pw", "b@bcrash.test": "pw" } });
const ANY_TIME = { sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 0 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitExit(w: ChildProcess, ms: number): Promise<boolean> {
  if (w.exitCode !== null || w.signalCode !== null) return true;
  return Promise.race([new Promise<boolean>((r) => w.once("exit", () => r(true))), sleep(ms).then(() => false)]);
}

/** Starts a worker armed at `point` and waits until it dies there; returns whether it did. */
async function crashAt(point: CrashPoint): Promise<boolean> {
  const w = startWorker({ OUTREACH_CRASH_AT: point });
  // A fresh worker's first tick runs every job once before the branch job, which takes a while on a loaded machine.
  const died = await waitExit(w, 90_000);
  if (!died) await killWorker(w);
  // The dead worker's leases would lapse in minutes; move them back instead of waiting.
  await getDb().execute(sql`update mailboxes set send_lease_until = null`);
  return died && w.signalCode === "SIGKILL";
}

/** Runs an unarmed worker until `done()` holds (or two minutes pass), then kills it. */
async function runUntil(done: () => Promise<boolean>): Promise<boolean> {
  const w = startWorker();
  const deadline = Date.now() + 120_000;
  let ok = false;
  while (!ok && Date.now() < deadline) {
    ok = await done();
    if (!ok) await sleep(200);
  }
  await killWorker(w);
  await getDb().execute(sql`update mailboxes set send_lease_until = null`);
  return ok;
}

/** Step 0 branches on the reply's intent; the "Booking" subsequence's first step is due at once; step 1 is two days later. */
async function branchingCampaign(key: string, mailboxIds: string[], leads: string[]) {
  const { campaign, leadIds, launched } = await launchCampaign(key, {
    campaign: { name: "Branch crash", ...ANY_TIME },
    steps: [{ stepOrder: 0, subject: "Idea", bodyTemplate: "Hi" }],
    mailboxIds,
    leads: leads.map((email) => ({ email })),
  });
  expect(launched.body.status).toBe("ACTIVE");
  const id = campaign.id as string;
  const sub = await call(CREATE_SUB, "POST", "", { key, params: { id }, body: { name: "Booking" } });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const subSteps = {
    subsequenceId: sub.body.id,
    steps: [{ stepOrder: 0, bodyTemplate: "Here is my calendar.", delayHoursAfterPrevious: 0 }],
  };
  expect((await call(PUT_STEPS, "PUT", "", { key, params: { id }, body: subSteps })).status).toBe(200);
  const tag = await call(CREATE_TAG, "POST", "", { key, body: { name: "asked a question" } });
  expect(tag.status, JSON.stringify(tag.body)).toBe(201);
  const branches = [
    { when: { replied: ["INTERESTED"] }, action: { type: "subsequence", subsequenceId: sub.body.id } },
    { when: { replied: ["NOT_INTERESTED"] }, action: { type: "stop" } },
    { when: { replied: ["QUESTION"] }, action: { type: "tag", tagId: tag.body.id } },
  ];
  const steps = [
    { stepOrder: 0, subject: "Idea", bodyTemplate: "Hi", branches },
    { stepOrder: 1, bodyTemplate: "Bump", delayHoursAfterPrevious: 48 },
  ];
  const main = await call(PUT_STEPS, "PUT", "", { key, params: { id }, body: { steps } });
  expect(main.status, JSON.stringify(main.body)).toBe(200);
  return { campaignId: id, leadIds, subsequenceId: sub.body.id as string, tagId: tag.body.id as string };
}

const count = (rows: { n: number }[]) => Number(rows[0]?.n ?? 0);

describe("kill -9 at three points of a branch decision", () => {
  it("applies every decision exactly once: one row, one move, one tag, one event, one subsequence send", async () => {
    const db = getDb();
    const ws = suite.ws.workspaceId;
    const pool = await connectMailboxes(suite.ws.fullKey, [
      { email: "a@bcrash.test", appPassword: "pw" },
      { email: "b@bcrash.test", appPassword: "pw" },
    ]);
    await db.execute(sql`update mailboxes set daily_send_cap = 500 where workspace_id = ${ws}`);
    // A webhook on lead.branched keeps each event in its delivery once the workers' webhook job takes it out of the outbox.
    process.env.OUTBOUND_ALLOW_HOSTS ??= "127.0.0.1";
    await createWebhook(systemCtx(ws), { url: "http://127.0.0.1:9/branch-hook", events: ["lead.branched"] });
    // Leads interleaved by action, so the after-effect kills land on every kind of decision.
    const plan = Array.from({ length: PER_ACTION * ACTIONS.length }, (_, i) => ({ email: `l${i}@sink.test`, action: ACTIONS[i % 3] }));
    const c = await branchingCampaign(
      suite.ws.fullKey,
      pool.map((m) => m.id),
      plan.map((p) => p.email),
    );
    const actionOf = new Map(c.leadIds.map((id, i) => [id, plan[i].action]));

    // Step 0 goes out to everyone (every row SENT: the worker is killed after its conversations, not during one);
    // each lead then waits on its branch.
    const sent = await runUntil(async () => {
      const waiting = await db.$count(campaignLeads, and(eq(campaignLeads.campaignId, c.campaignId), sql`branch_step_id is not null`));
      const done = await db.$count(emails, and(eq(emails.campaignId, c.campaignId), eq(emails.status, "SENT")));
      return waiting === plan.length && done === plan.length;
    });
    expect(sent).toBe(true);
    const at = new Date();
    await db.insert(replies).values(
      c.leadIds.map((leadId, i) => ({
        id: newId("rep"),
        workspaceId: ws,
        mailboxId: pool[0].id,
        leadId,
        campaignId: c.campaignId,
        messageId: `<r${i}@sink.test>`,
        from: { name: null, address: plan[i].email },
        subject: "Re: Idea",
        textBody: "Thanks",
        receivedAt: at,
        intent: INTENT[plan[i].action],
      })),
    );
    // Due at once, in plan order (the branch job takes the earliest first), as the reply ingest makes them due.
    for (const [i, leadId] of c.leadIds.entries())
      await db.execute(sql`update campaign_leads set next_send_at = ${new Date(at.getTime() - (plan.length - i) * 1000).toISOString()}::timestamptz
        where campaign_id = ${c.campaignId} and lead_id = ${leadId}`);

    const kills: Record<string, number> = {};
    for (const point of POINTS) {
      kills[point] = 0;
      for (let i = 0; i < REPEAT; i++) if (await crashAt(point)) kills[point]++;
    }
    const decidedBeforeFinish = await db.$count(leadBranches, eq(leadBranches.campaignId, c.campaignId));

    const subLeads = c.leadIds.filter((id) => actionOf.get(id) === "subsequence");
    const subSends = () =>
      selectRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from emails e join campaign_steps s on s.id = e.step_id
          where e.campaign_id = ${c.campaignId} and s.subsequence_id = ${c.subsequenceId} and e.status = 'SENT'`,
      ).then(count);
    const finished = await runUntil(async () => {
      const decided = await db.$count(leadBranches, eq(leadBranches.campaignId, c.campaignId));
      return decided === plan.length && (await subSends()) >= subLeads.length;
    });
    expect(finished).toBe(true);

    const decisions = await db.select().from(leadBranches).where(eq(leadBranches.campaignId, c.campaignId));
    const perKey = new Map<string, number>();
    for (const d of decisions) perKey.set(`${d.leadId}|${d.stepId}`, (perKey.get(`${d.leadId}|${d.stepId}`) ?? 0) + 1);
    const timeline = await db
      .select()
      .from(leadEvents)
      .where(and(eq(leadEvents.campaignId, c.campaignId), eq(leadEvents.kind, "branched")));
    const branched = (await workspaceEvents(ws, "lead.branched")).filter((e) => e.data.campaignId === c.campaignId);
    const places = await db.select().from(campaignLeads).where(eq(campaignLeads.campaignId, c.campaignId));
    const tagged = await db.select().from(leadTags).where(eq(leadTags.tagId, c.tagId));
    const subRows = await selectRows<{ leadId: string; n: number }>(
      db,
      sql`select e.lead_id as "leadId", count(*)::int as n from emails e join campaign_steps s on s.id = e.step_id
        where e.campaign_id = ${c.campaignId} and s.subsequence_id = ${c.subsequenceId} group by e.lead_id`,
    );
    const wire = new Map<string, number>();
    for (const r of suite.world.smtp.received) wire.set(r.to[0], (wire.get(r.to[0]) ?? 0) + 1);
    const offPlan = plan.filter((p) => (wire.get(p.email) ?? 0) !== (p.action === "subsequence" ? 2 : 1));
    const wireExpected = offPlan.length === 0;
    const perLead = (xs: { leadId?: unknown }[]) => c.leadIds.every((id) => xs.filter((x) => x.leadId === id).length === 1);

    for (const point of POINTS)
      figure({
        suite: "branch-crash",
        name: `kill -9 ${point}`,
        value: `${kills[point]}/${REPEAT}`,
        goal: `${REPEAT}/${REPEAT}`,
        pass: kills[point] === REPEAT,
      });
    figure({
      suite: "branch-crash",
      name: "lead_branches rows / leads (decided before the last worker)",
      value: `${decisions.length} / ${plan.length} (${decidedBeforeFinish})`,
      goal: `${plan.length} / ${plan.length}`,
      pass: decisions.length === plan.length && [...perKey.values()].every((n) => n === 1),
    });
    figure({
      suite: "branch-crash",
      name: "lead.branched events / timeline entries",
      value: `${branched.length} / ${timeline.length}`,
      goal: `${plan.length} / ${plan.length}`,
      pass: branched.length === plan.length && timeline.length === plan.length,
    });
    figure({
      suite: "branch-crash",
      name: "leads whose emails at the SMTP peer are off plan (a duplicate or a loss)",
      value: offPlan.map((p) => `${p.email}×${wire.get(p.email) ?? 0}`).join(" ") || 0,
      goal: "0",
      pass: wireExpected,
    });

    expect(kills).toEqual(Object.fromEntries(POINTS.map((p) => [p, REPEAT])));
    // The after-decide and during-effect kills commit nothing; each after-effect kill commits one decision.
    expect(decidedBeforeFinish).toBe(REPEAT);
    expect(decisions).toHaveLength(plan.length);
    expect([...perKey.values()].every((n) => n === 1)).toBe(true);
    expect(perLead(decisions)).toBe(true);
    expect(perLead(timeline)).toBe(true);
    expect(perLead(branched.map((e) => ({ leadId: e.data.leadId })))).toBe(true);
    for (const p of places) {
      const action = actionOf.get(p.leadId);
      expect(p.branchStepId).toBeNull();
      if (action === "subsequence") expect(p).toMatchObject({ subsequenceId: c.subsequenceId, status: "COMPLETED" });
      if (action === "stop") expect(p).toMatchObject({ status: "REPLIED", nextSendAt: null });
      if (action === "tag") expect(p).toMatchObject({ status: "ACTIVE", subsequenceId: null, nextStepOrder: 1 });
    }
    expect(tagged.map((t) => t.leadId).sort()).toEqual(c.leadIds.filter((id) => actionOf.get(id) === "tag").sort());
    expect(subRows.map((r) => r.leadId).sort()).toEqual([...subLeads].sort());
    expect(subRows.every((r) => r.n === 1)).toBe(true);
    expect(wireExpected).toBe(true);
    const stepOf = await db.select({ n: sql<number>`count(*)::int` }).from(emails).where(eq(emails.campaignId, c.campaignId));
    expect(count(stepOf)).toBe(plan.length + subLeads.length);
  }, 1_500_000); // 30 worker starts and kills at full size: about 12 minutes on a loaded 2-core machine
});
