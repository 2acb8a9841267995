import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, campaignSteps, emails, leads, mailboxes, replies, suppressions } from "@/db/schema";
import { DateTime } from "luxon";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { call } from "@/test/helpers";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { PATCH as PATCH_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/route";
import { scheduleDue, sendDue } from "./engine";
import { claimDue, nextDueLeads } from "./engine/claim";

const USERS = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`s${i}@sched.test`, "pw"]));
const mailboxIds: string[] = [];

const suite = mailSuite({ domain: "sched.test", users: USERS });
beforeAll(async () => {
  for (const m of await connectMailboxes(
    suite.ws.fullKey,
    Object.keys(USERS).map((email) => ({ email, appPassword: "pw" })),
  ))
    mailboxIds.push(m.id);
  await getDb().update(mailboxes).set({ dailySendCap: 1000 });
}, 60_000);

/** An ACTIVE campaign sending any day and hour, with `leadCount` leads spread over `pool`. */
async function campaign(opts: {
  name: string;
  pool: string[];
  leadCount: number;
  body?: Record<string, unknown>;
  steps: Record<string, unknown>[];
}) {
  const { campaign: c, launched } = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: opts.name, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], minGapMinutes: 1, ...opts.body },
    steps: opts.steps,
    mailboxIds: opts.pool,
    leads: Array.from({ length: opts.leadCount }, (_, i) => ({ email: `${opts.name.toLowerCase()}${i}@leads.test` })),
  });
  expect(launched.body.status).toBe("ACTIVE");
  return c.id as string;
}

/** A first email and a follow-up `delayHours` after it. */
const firstAndFollowUp = (delayHours: number) => [
  { stepOrder: 0, subject: "First", bodyTemplate: "One" },
  { stepOrder: 1, bodyTemplate: "Two", delayHoursAfterPrevious: delayHours },
];

/** The campaign's leads still waiting on their first email. */
const waitingOnFirstStep = (campaignId: string) =>
  getDb()
    .select()
    .from(campaignLeads)
    .where(and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.nextStepOrder, 0)));

/** History: 60 sends of each variant; A got 20 replies from people (and B 30 automatic ones, which are not a result). */
async function seedVariantHistory(campaignId: string) {
  const variants = await getDb().select().from(campaignSteps).where(eq(campaignSteps.campaignId, campaignId));
  for (const v of variants) {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      id: newId("eml"),
      workspaceId: suite.ws.workspaceId,
      mailboxId: mailboxIds[0],
      leadEmail: `past${i}@old.test`,
      campaignId,
      stepId: v.id,
      stepOrder: 0,
      variantGroup: v.variantGroup,
      messageId: `<${randomUUID()}@sched.test>`,
      subject: "old",
      status: "SENT" as const,
      createdAt: new Date(Date.now() - 86_400_000 * 3),
    }));
    await getDb().insert(emails).values(rows);
    const answered = v.variantGroup === "A" ? rows.slice(0, 20) : rows.slice(0, 30);
    await getDb()
      .insert(replies)
      .values(
        answered.map((e) => ({
          id: newId("rep"),
          workspaceId: suite.ws.workspaceId,
          mailboxId: mailboxIds[0],
          emailId: e.id,
          messageId: `<${randomUUID()}@old.test>`,
          receivedAt: new Date(),
          isAutoReply: v.variantGroup === "B",
        })),
      );
  }
}

describe("the set-based scheduler", () => {
  it("keeps dailyNewLeadCap when several workers schedule first emails of one campaign at the same moment", async () => {
    const id = await campaign({
      name: "Capped",
      pool: mailboxIds,
      leadCount: 12,
      body: { dailyNewLeadCap: 2 },
      steps: [{ stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" }],
    });
    const clock = new ManualClock(new Date());
    // Three workers, two mailboxes each, all reading "0 sent today" before any of them commits.
    const passes = await Promise.all([0, 1, 2].map(() => scheduleDue(getDb(), clock, { mailboxLimit: 2 })));
    expect(passes.map((p) => p.claimed)).toEqual([2, 2, 2]);
    const scheduled = passes.flatMap((p) => p.work);
    expect(scheduled).toHaveLength(2);
    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, id));
    expect(rows.map((r) => r.status)).toEqual(["SENDING", "SENDING"]);
    // The four leads not sent are still waiting on step 0, and every mailbox without work was released.
    const waiting = await waitingOnFirstStep(id);
    expect(waiting).toHaveLength(10);
    const leased = await getDb().select({ id: mailboxes.id }).from(mailboxes).where(sql`${mailboxes.sendLeaseUntil} is not null`);
    expect(leased.map((m) => m.id).sort()).toEqual(scheduled.map((w) => w.mailbox.id).sort());
    await getDb().update(campaignLeads).set({ status: "STOPPED" }).where(eq(campaignLeads.campaignId, id));
    await getDb().update(mailboxes).set({ sendLeaseUntil: null, nextSendAt: null });
  });

  it("a pass cut into rounds run on parallel lanes considers each mailbox once: one released with nothing to send is not claimed again in the same pass", async () => {
    const pool = mailboxIds.slice(0, 4);
    const id = await campaign({ name: "Rounds", pool, leadCount: 12, steps: [{ stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" }] });
    const rows = await getDb()
      .select({ leadEmail: sql<string>`(select email from leads where id = ${campaignLeads.leadId})`, mailboxId: campaignLeads.mailboxId })
      .from(campaignLeads)
      .where(eq(campaignLeads.campaignId, id))
      .orderBy(campaignLeads.seq);
    // The first mailbox's first two due leads are suppressed: its round stops them and finds nothing to send.
    const first = rows.filter((r) => r.mailboxId === pool[0]);
    expect(first.length).toBeGreaterThanOrEqual(3);
    await getDb()
      .insert(suppressions)
      .values(
        first.slice(0, 2).map((r) => ({ id: newId("sup"), workspaceId: suite.ws.workspaceId, kind: "email" as const, value: r.leadEmail })),
      );
    const clock = new ManualClock(new Date(Date.now() + 120_000));
    const pass = await scheduleDue(getDb(), clock, { mailboxLimit: 8, roundSize: 1 });
    // Four rounds of one mailbox, a fifth finds none; the first mailbox is not claimed again for its third lead.
    expect(pass.claimed).toBe(4);
    expect(pass.work.map((w) => w.mailbox.id).sort()).toEqual(pool.slice(1).sort());
    const leased = await getDb().select({ id: mailboxes.id }).from(mailboxes).where(sql`${mailboxes.sendLeaseUntil} is not null`);
    expect(leased.map((m) => m.id).sort()).toEqual(pool.slice(1).sort());
    // The next pass sends the first mailbox's third lead.
    await getDb().update(mailboxes).set({ sendLeaseUntil: null, nextSendAt: null });
    const next = await scheduleDue(getDb(), clock, { mailboxLimit: 1, mailboxIds: [pool[0]] });
    expect(next.work.map((w) => w.lead.email)).toEqual([first[2].leadEmail]);
    await getDb().update(campaignLeads).set({ status: "STOPPED" }).where(eq(campaignLeads.campaignId, id));
    await getDb().update(mailboxes).set({ sendLeaseUntil: null, nextSendAt: null });
  });

  it("reads each mailbox's due leads in queue order: never-scheduled ones first in the order added, then the longest due", async () => {
    const pool = mailboxIds.slice(0, 4);
    const id = await campaign({
      name: "Ordered",
      pool,
      leadCount: 16,
      steps: [{ stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" }],
    });
    const rows = await getDb()
      .select({ leadId: campaignLeads.leadId, mailboxId: campaignLeads.mailboxId })
      .from(campaignLeads)
      .where(eq(campaignLeads.campaignId, id))
      .orderBy(campaignLeads.seq);
    // Four leads per mailbox, in the order added (assignment follows each mailbox's load across campaigns).
    for (const [k, r] of rows.entries()) {
      r.mailboxId = pool[k % pool.length];
      await getDb()
        .update(campaignLeads)
        .set({ mailboxId: r.mailboxId })
        .where(and(eq(campaignLeads.campaignId, id), eq(campaignLeads.leadId, r.leadId)));
    }
    const now = new Date(Date.now() + 120_000);
    const ago = (min: number) => new Date(now.getTime() - min * 60_000);
    // Two patterns by seq (L0…L3): [-1 min, -3 min, -2 min, never] → L3 then L1; [-1 min, never, -2 min, never] → L1 then L3.
    const patterns = [
      [ago(1), ago(3), ago(2), null],
      [ago(1), null, ago(2), null],
    ];
    const expected = new Map<string, string[]>();
    for (const [i, mbx] of pool.entries()) {
      const mine = rows.filter((r) => r.mailboxId === mbx);
      expect(mine.length).toBeGreaterThanOrEqual(4);
      const pattern = patterns[i % 2];
      for (const [k, r] of mine.slice(0, 4).entries())
        await getDb()
          .update(campaignLeads)
          .set({ nextSendAt: pattern[k] })
          .where(and(eq(campaignLeads.campaignId, id), eq(campaignLeads.leadId, r.leadId)));
      // Any lead past the fourth waits, so each mailbox's first two due leads are among the four.
      for (const r of mine.slice(4))
        await getDb()
          .update(campaignLeads)
          .set({ nextSendAt: new Date(now.getTime() + 3600_000) })
          .where(and(eq(campaignLeads.campaignId, id), eq(campaignLeads.leadId, r.leadId)));
      expected.set(mbx, i % 2 === 0 ? [mine[3].leadId, mine[1].leadId] : [mine[1].leadId, mine[3].leadId]);
    }
    // The claim reads each mailbox's first due lead; the second look (nextDueLeads) the next, in the same order.
    const claim = await claimDue(getDb(), now, 10, pool);
    expect(claim.mailboxIds.sort()).toEqual([...pool].sort());
    const next = await nextDueLeads(getDb(), now, claim.due);
    for (const mbx of pool) {
      const firsts = claim.due.filter((d) => d.mailboxId === mbx && d.campaignId === id);
      expect(firsts).toHaveLength(1);
      const seconds = next.filter((d) => d.mailboxId === mbx && d.campaignId === id);
      expect([...firsts, ...seconds].map((d) => d.leadId)).toEqual(expected.get(mbx));
    }
    await getDb().update(campaignLeads).set({ status: "STOPPED" }).where(eq(campaignLeads.campaignId, id));
    await getDb().update(mailboxes).set({ sendLeaseUntil: null, nextSendAt: null });
  });

  it("leans A/B variants to the better reply rate when optimising (replies counted from the inbox), and picks at random otherwise", async () => {
    const steps = [
      { stepOrder: 0, variantGroup: "A", subject: "A", bodyTemplate: "Variant A" },
      { stepOrder: 0, variantGroup: "B", subject: "B", bodyTemplate: "Variant B" },
    ];
    const results: Record<string, Record<string, number>> = {};
    const clock = new ManualClock(new Date(Date.now() + 60_000));
    for (const [name, optimise] of [
      ["Optimised", true],
      ["Random", false],
    ] as const) {
      const id = await campaign({
        name,
        pool: [mailboxIds[0]],
        leadCount: 24,
        body: { abVariantOptimization: optimise, minGapMinutes: 1 },
        steps,
      });
      await seedVariantHistory(id);
      for (let i = 0; i < 24; i++) {
        expect(await sendDue(getDb(), clock, { mailboxIds: [mailboxIds[0]] })).toMatchObject({ sent: 1 });
        clock.advance(2 * 60_000);
      }
      const sent = await getDb()
        .select()
        .from(emails)
        .where(and(eq(emails.campaignId, id), sql`${emails.createdAt} > now() - interval '1 day'`));
      results[name] = { A: sent.filter((e) => e.variantGroup === "A").length, B: sent.filter((e) => e.variantGroup === "B").length };
    }
    expect(results.Optimised.A + results.Optimised.B).toBe(24);
    expect(results.Optimised.A).toBeGreaterThanOrEqual(22);
    expect(results.Random.A).toBeGreaterThan(0);
    expect(results.Random.B).toBeGreaterThan(0);
  });
});

describe("the set-based scheduler: leads deferred by the campaign's settings", () => {
  it("defers first emails past a full dailyNewLeadCap to the campaign's next day, so follow-ups behind them go on; raising the cap undoes the wait", async () => {
    const mbx = mailboxIds[1];
    const id = await campaign({
      name: "Queue",
      pool: [mbx],
      leadCount: 6,
      body: { dailyNewLeadCap: 1, defaultTimezone: "Europe/Berlin", sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 1 },
      steps: firstAndFollowUp(0),
    });
    const clock = new ManualClock(new Date(Date.now() + 3 * 3600_000));
    const pass = async () => {
      const r = await sendDue(getDb(), clock, { mailboxIds: [mbx] });
      clock.advance(2 * 60_000);
      return r;
    };
    expect(await pass()).toMatchObject({ sent: 1 }); // the first lead's first email: the cap is full
    // The next passes: the other five first emails are deferred to Berlin's next midnight, and the first
    // lead's follow-up (due at once, queued behind them) is sent although only 2 due leads are read.
    await pass();
    await pass();
    await pass();
    const sent = await getDb().select().from(emails).where(eq(emails.campaignId, id));
    expect(sent.map((e) => e.stepOrder).sort()).toEqual([0, 1]);
    expect(new Set(sent.map((e) => e.leadId)).size).toBe(1);
    const waiting = await waitingOnFirstStep(id);
    expect(waiting).toHaveLength(5);
    const berlinMidnight = DateTime.fromJSDate(clock.now(), { zone: "Europe/Berlin" }).startOf("day").plus({ days: 1 }).toJSDate();
    for (const w of waiting) expect(w.nextSendAt?.toISOString()).toBe(berlinMidnight.toISOString());

    // Raising the cap makes them due again at once, and they go out (one per pass).
    useClock(clock);
    expect((await call(PATCH_CAMPAIGN, "PATCH", "", { key: suite.ws.fullKey, params: { id }, body: { dailyNewLeadCap: 10 } })).status).toBe(
      200,
    );
    useClock(systemClock);
    const after = await waitingOnFirstStep(id);
    expect(after.every((w) => w.nextSendAt === null)).toBe(true);
    expect(await pass()).toMatchObject({ sent: 1 });
  });

  it("a changed window makes leads deferred under the old one due by the new one; a follow-up keeps its delay", async () => {
    const mbx = mailboxIds[2];
    const id = await campaign({
      name: "Window",
      pool: [mbx],
      leadCount: 2,
      body: { defaultTimezone: "UTC", sendWindowStartHour: 0, sendWindowEndHour: 24 },
      steps: firstAndFollowUp(48),
    });
    const clock = new ManualClock(new Date("2026-12-01T12:00:00Z"));
    expect(await sendDue(getDb(), clock, { mailboxIds: [mbx] })).toMatchObject({ sent: 1 });
    clock.advance(2 * 60_000);
    // A window that is closed now (13:00–14:00 UTC): the second lead is deferred to 13:00.
    useClock(clock);
    await call(PATCH_CAMPAIGN, "PATCH", "", {
      key: suite.ws.fullKey,
      params: { id },
      body: { sendWindowStartHour: 13, sendWindowEndHour: 14 },
    });
    expect(await sendDue(getDb(), clock, { mailboxIds: [mbx] })).toMatchObject({ sent: 0 });
    const rows = async () =>
      new Map((await getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, id))).map((r) => [r.nextStepOrder, r]));
    expect((await rows()).get(0)?.nextSendAt?.toISOString()).toBe("2026-12-01T13:00:00.000Z");
    // Back to all day: due at once, and sent; the follow-up still waits its 48 hours.
    await call(PATCH_CAMPAIGN, "PATCH", "", {
      key: suite.ws.fullKey,
      params: { id },
      body: { sendWindowStartHour: 0, sendWindowEndHour: 24 },
    });
    useClock(systemClock);
    expect((await rows()).get(0)?.nextSendAt).toBeNull();
    expect(await sendDue(getDb(), clock, { mailboxIds: [mbx] })).toMatchObject({ sent: 1 });
    const followUps = (await getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, id))).map((r) =>
      r.nextSendAt?.toISOString(),
    );
    expect(followUps.sort()).toEqual(["2026-12-03T12:00:00.000Z", "2026-12-03T12:02:00.000Z"]);
  });

  it("a second look gives the plan of reading two due leads per mailbox: a lead sent on it can take a campaign's last new-lead place from a later mailbox, which then looks at its second lead", async () => {
    const [m1, m2] = [mailboxIds[4], mailboxIds[5]];
    const window = { defaultTimezone: "UTC", sendWindowStartHour: 0, sendWindowEndHour: 24 };
    const capped = await campaign({
      name: "Reorder",
      pool: [m1, m2],
      leadCount: 3,
      body: { ...window, dailyNewLeadCap: 1 },
      steps: [{ stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" }],
    });
    const open = await campaign({
      name: "Behind",
      pool: [m2],
      leadCount: 1,
      body: window,
      steps: [{ stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" }],
    });
    const byCampaign = async (id: string) =>
      getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, id)).orderBy(campaignLeads.seq);
    const [a1, a2, b2] = await byCampaign(capped);
    const [c2] = await byCampaign(open);
    // m1's queue: a1 (suppressed), a2 (a first email); m2's: b2 (a first email), then c2 (another campaign's, uncapped).
    for (const [r, mbx] of [
      [a1, m1],
      [a2, m1],
      [b2, m2],
    ] as const)
      await getDb()
        .update(campaignLeads)
        .set({ mailboxId: mbx })
        .where(and(eq(campaignLeads.campaignId, capped), eq(campaignLeads.leadId, r.leadId)));
    const [{ email: suppressed }] = await getDb().select({ email: leads.email }).from(leads).where(eq(leads.id, a1.leadId));
    await getDb()
      .insert(suppressions)
      .values({ id: newId("sup"), workspaceId: suite.ws.workspaceId, kind: "email", value: suppressed });
    const clock = new ManualClock(new Date(Date.now() + 120_000));
    // m1 is claimed first (paced longest ago), so it is decided first.
    await getDb()
      .update(mailboxes)
      .set({ sendLeaseUntil: null, nextSendAt: new Date(clock.now().getTime() - 120_000) })
      .where(eq(mailboxes.id, m1));
    await getDb()
      .update(mailboxes)
      .set({ sendLeaseUntil: null, nextSendAt: new Date(clock.now().getTime() - 60_000) })
      .where(eq(mailboxes.id, m2));

    // Read two per mailbox, the pass would be: m1 stops a1 and sends a2 (the campaign's one new-lead place
    // today); m2's b2 finds the cap full and waits for tomorrow, and m2 sends c2.
    expect(await sendDue(getDb(), clock, { mailboxIds: [m1, m2] })).toMatchObject({ sent: 2 });
    const sent = await getDb()
      .select({ leadId: emails.leadId, mailboxId: emails.mailboxId })
      .from(emails)
      .where(sql`${emails.campaignId} in (${capped}, ${open})`);
    expect(sent.sort((x, y) => x.mailboxId.localeCompare(y.mailboxId))).toEqual(
      [
        { leadId: a2.leadId, mailboxId: m1 },
        { leadId: c2.leadId, mailboxId: m2 },
      ].sort((x, y) => x.mailboxId.localeCompare(y.mailboxId)),
    );
    const after = new Map((await byCampaign(capped)).map((r) => [r.leadId, r]));
    expect(after.get(a1.leadId)?.status).toBe("STOPPED");
    expect(after.get(b2.leadId)).toMatchObject({ status: "ACTIVE", nextStepOrder: 0 });
    expect(after.get(b2.leadId)?.nextSendAt?.getTime()).toBeGreaterThan(clock.now().getTime());
    await getDb().update(campaignLeads).set({ status: "STOPPED" }).where(sql`${campaignLeads.campaignId} in (${capped}, ${open})`);
    await getDb().update(mailboxes).set({ sendLeaseUntil: null, nextSendAt: null });
  });
});
