import { describe, expect, it } from "vitest";
import { afterFailure, afterSend, decide, type PassFacts, withinNewLeadCaps } from "./decide";
import { campaign, lead, mailbox, step } from "./test-rows";
import type { Campaign, DueLead, Mailbox, Step } from "./types";
import { pickVariant } from "./variants";

// Pure: no database, no clock. A Tuesday, 14:00 UTC.
const NOW = new Date("2026-11-03T14:00:00Z");
const T = (iso: string) => new Date(iso);

interface Case {
  rule: string;
  mailboxes?: Mailbox[];
  due?: DueLead[];
  campaign?: Partial<Campaign>;
  steps?: Step[];
  sentToday?: Record<string, number>;
  firstToday?: number;
  suppressed?: string[];
  /** Per mailbox, in order: "send <leadId>" or "release <reason> [until]". */
  mailbox: string[];
  /** Every lead looked at: "<leadId> <kind> <reason> [until or toOrder]". */
  leads: string[];
}

function facts(c: Case): PassFacts {
  const cmp = campaign(c.campaign);
  const due = new Map<string, DueLead[]>();
  for (const d of c.due ?? [lead("l1")]) due.set(d.mailboxId, [...(due.get(d.mailboxId) ?? []), d]);
  return {
    now: NOW,
    mailboxes: c.mailboxes ?? [mailbox("mbx_1")],
    sentToday: new Map(Object.entries(c.sentToday ?? {})),
    due,
    campaigns: new Map([[cmp.id, cmp]]),
    steps: new Map([[cmp.id, c.steps ?? [step(0), step(1)]]]),
    isSuppressed: (ws, email) => ws === "ws_1" && (c.suppressed ?? []).includes(email.toLowerCase()),
    firstToday: new Map(c.firstToday === undefined ? [] : [[cmp.id, c.firstToday]]),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : "never");

const CASES: Case[] = [
  { rule: "a due lead in an open window is sent now", mailbox: ["send l1"], leads: ["l1 send due"] },
  {
    rule: "window: an hour outside the lead's zone's window defers it to the opening (Los Angeles, 06:00)",
    due: [lead("l1", { timezone: "America/Los_Angeles" })],
    mailbox: ["release nothing-sendable"],
    leads: ["l1 defer outside-hours 2026-11-03T17:00:00.000Z"],
  },
  {
    rule: "timezone: without its own zone the lead is read in the campaign's defaultTimezone (Tokyo, 23:00)",
    campaign: { defaultTimezone: "Asia/Tokyo" },
    mailbox: ["release nothing-sendable"],
    leads: ["l1 defer outside-hours 2026-11-04T00:00:00.000Z"],
  },
  {
    rule: "timezone: the lead's own zone wins over the campaign's (Berlin 15:00 open, campaign in Tokyo)",
    campaign: { defaultTimezone: "Asia/Tokyo" },
    due: [lead("l1", { timezone: "Europe/Berlin" })],
    mailbox: ["send l1"],
    leads: ["l1 send due"],
  },
  {
    rule: "timezone: with no zone at all any hour counts (03:00 UTC)",
    campaign: { sendWindowStartHour: 3, sendWindowEndHour: 4 },
    mailbox: ["send l1"],
    leads: ["l1 send due"],
  },
  {
    rule: "days: a day not in sendDaysOfWeek defers to the next allowed day (Monday only)",
    campaign: { sendDaysOfWeek: [1] },
    mailbox: ["release nothing-sendable"],
    leads: ["l1 defer day-not-allowed 2026-11-09T00:00:00.000Z"],
  },
  {
    rule: "days: no allowed day at all defers for good",
    campaign: { sendDaysOfWeek: [] },
    mailbox: ["release nothing-sendable"],
    leads: ["l1 defer day-not-allowed never"],
  },
  {
    rule: "startAt: a campaign that has not started sends nothing yet",
    campaign: { startAt: T("2026-11-03T15:00:00Z") },
    mailbox: ["release nothing-sendable"],
    leads: ["l1 wait not-started"],
  },
  {
    rule: "startAt: once passed, the campaign sends",
    campaign: { startAt: T("2026-11-03T13:59:00Z") },
    mailbox: ["send l1"],
    leads: ["l1 send due"],
  },
  {
    rule: "campaign status: a paused campaign sends nothing",
    campaign: { status: "PAUSED" },
    mailbox: ["release nothing-sendable"],
    leads: ["l1 wait campaign-not-active"],
  },
  {
    rule: "daily cap: a mailbox at its dailySendCap waits for the next UTC day, no lead looked at",
    sentToday: { mbx_1: 20 },
    mailbox: ["release daily-cap 2026-11-04T00:00:00.000Z"],
    leads: [],
  },
  {
    rule: "daily cap: one below the cap still sends",
    sentToday: { mbx_1: 19 },
    mailbox: ["send l1"],
    leads: ["l1 send due"],
  },
  {
    rule: "dailyNewLeadCap: a full cap defers a first email to the campaign's next day; the follow-up behind it goes",
    campaign: { dailyNewLeadCap: 3, defaultTimezone: "America/New_York" },
    firstToday: 3,
    due: [lead("l1"), lead("l2", { nextStepOrder: 1 })],
    mailbox: ["send l2"],
    leads: ["l1 defer new-lead-cap 2026-11-04T05:00:00.000Z", "l2 send due"],
  },
  {
    rule: "dailyNewLeadCap: counted across the mailboxes of one pass",
    campaign: { dailyNewLeadCap: 1 },
    firstToday: 0,
    mailboxes: [mailbox("mbx_1"), mailbox("mbx_2")],
    due: [lead("l1"), lead("l2", { mailboxId: "mbx_2" })],
    mailbox: ["send l1", "release nothing-sendable"],
    leads: ["l1 send due", "l2 defer new-lead-cap 2026-11-04T00:00:00.000Z"],
  },
  {
    rule: "stop-on-reply: a lead that replied (REPLIED) gets nothing; the next one is sent",
    due: [lead("l1", { status: "REPLIED" }), lead("l2")],
    mailbox: ["send l2"],
    leads: ["l1 wait lead-not-active", "l2 send due"],
  },
  {
    rule: "suppression: a suppressed address (any case) is stopped",
    due: [lead("l1", { email: "Gone@Lead.test" }), lead("l2")],
    suppressed: ["gone@lead.test"],
    mailbox: ["send l2"],
    leads: ["l1 stop suppressed", "l2 send due"],
  },
  {
    rule: "unsubscribe: an unsubscribed lead gets nothing",
    due: [lead("l1", { status: "UNSUBSCRIBED" })],
    mailbox: ["release nothing-sendable"],
    leads: ["l1 wait lead-not-active"],
  },
  {
    rule: "step delay: a follow-up before its delay has passed waits",
    due: [lead("l1", { nextStepOrder: 1, nextSendAt: "2026-11-03 15:00:00+00" })],
    mailbox: ["release nothing-sendable"],
    leads: ["l1 wait not-due-yet"],
  },
  {
    rule: "step delay / retry backoff: once next_send_at has passed the step is sent",
    due: [lead("l1", { nextStepOrder: 1, nextSendAt: "2026-11-03 13:00:00+00", failedAttempts: 2 })],
    mailbox: ["send l1"],
    leads: ["l1 send due"],
  },
  {
    rule: "finished: no step at this order and none after it completes the lead",
    due: [lead("l1", { nextStepOrder: 2 })],
    mailbox: ["release nothing-sendable"],
    leads: ["l1 complete no-more-steps"],
  },
  {
    rule: "steps renumbered: no step at this order but a later one moves the lead on to it",
    steps: [step(0), step(2)],
    due: [lead("l1", { nextStepOrder: 1 })],
    mailbox: ["release nothing-sendable"],
    leads: ["l1 skip step-removed 2"],
  },
  {
    rule: "one email per mailbox per pass: the first sendable lead, the rest not looked at",
    due: [lead("l1"), lead("l2")],
    mailbox: ["send l1"],
    leads: ["l1 send due"],
  },
  {
    rule: "mailbox: sending turned off",
    mailboxes: [mailbox("mbx_1", { sendingEnabled: false })],
    mailbox: ["release sending-disabled"],
    leads: [],
  },
  {
    rule: "mailbox: login failing",
    mailboxes: [mailbox("mbx_1", { loginFailingSince: T("2026-11-03T10:00:00Z") })],
    mailbox: ["release login-failing"],
    leads: [],
  },
  {
    rule: "mailbox: auto-paused by a bounce spike",
    mailboxes: [mailbox("mbx_1", { autoPausedAt: T("2026-11-03T10:00:00Z") })],
    mailbox: ["release auto-paused"],
    leads: [],
  },
  {
    rule: "mailbox: its gap (pacing) has not passed",
    mailboxes: [mailbox("mbx_1", { nextSendAt: T("2026-11-03T14:05:00Z") })],
    mailbox: ["release pacing"],
    leads: [],
  },
];

describe("decide: every claim-time rule, as a pure function of the rows", () => {
  it.each(CASES)("$rule", (c) => {
    const plan = decide(facts(c));
    expect(
      plan.mailboxes.map((d) => (d.kind === "send" ? `send ${d.lead.leadId}` : `release ${d.reason}${d.until ? ` ${iso(d.until)}` : ""}`)),
    ).toEqual(c.mailbox);
    expect(
      plan.leads.map((d) => {
        const extra = d.kind === "defer" ? ` ${iso(d.until)}` : d.kind === "skip" ? ` ${d.toOrder}` : "";
        return `${d.lead.leadId} ${d.kind} ${d.reason}${extra}`;
      }),
    ).toEqual(c.leads);
  });

  it("variant choice: a send carries every variant of the lead's next step", () => {
    const steps = [step(0, { variantGroup: "A" }), step(0, { variantGroup: "B" }), step(1)];
    const plan = decide(facts({ rule: "", steps, mailbox: [], leads: [] }));
    const d = plan.mailboxes[0];
    expect(d.kind === "send" && d.variants.map((v) => v.variantGroup)).toEqual(["A", "B"]);
  });
});

describe("what a send or a refusal does to the lead", () => {
  it.each([
    {
      rule: "the next step is due its delay after this one",
      steps: [step(0), step(1, { delayHoursAfterPrevious: 48 })],
      at: 0,
      want: ["ACTIVE", "2026-11-05T14:00:00.000Z"],
    },
    {
      rule: "fractional delays count",
      steps: [step(0), step(1, { delayHoursAfterPrevious: 0.5 })],
      at: 0,
      want: ["ACTIVE", "2026-11-03T14:30:00.000Z"],
    },
    {
      rule: "the longest delay among the next step's variants",
      steps: [
        step(0),
        step(1, { variantGroup: "A", delayHoursAfterPrevious: 2 }),
        step(1, { variantGroup: "B", delayHoursAfterPrevious: 3 }),
      ],
      at: 0,
      want: ["ACTIVE", "2026-11-03T17:00:00.000Z"],
    },
    {
      rule: "no delay: due at once",
      steps: [step(0), step(1, { delayHoursAfterPrevious: null })],
      at: 0,
      want: ["ACTIVE", "2026-11-03T14:00:00.000Z"],
    },
    { rule: "the last step completes the lead", steps: [step(0), step(1)], at: 1, want: ["COMPLETED", "never"] },
  ])("after a send: $rule", ({ steps, at, want }) => {
    const r = afterSend(steps, steps.find((s) => s.stepOrder === at)!, NOW);
    expect([r.status, iso(r.nextSendAt)]).toEqual(want);
  });

  it.each([
    { before: 0, want: ["ACTIVE", 1, "2026-11-03T14:15:00.000Z"] },
    { before: 1, want: ["ACTIVE", 2, "2026-11-03T14:30:00.000Z"] },
    { before: 2, want: ["ACTIVE", 3, "2026-11-03T15:00:00.000Z"] },
    { before: 3, want: ["ACTIVE", 4, "2026-11-03T16:00:00.000Z"] },
    { before: 4, want: ["STOPPED", 5, "2026-11-03T18:00:00.000Z"] },
  ])("retry backoff: after refusal number $before + 1 → $want", ({ before, want }) => {
    const r = afterFailure(before, NOW);
    expect([r.status, r.failedAttempts, r.nextSendAt.toISOString()]).toEqual(want);
  });

  it("dailyNewLeadCap under the campaigns' locks keeps only the room left; follow-ups and uncapped campaigns pass", () => {
    const capped = campaign({ dailyNewLeadCap: 2 });
    const free = campaign({ id: "cmp_2" });
    const work = [
      { id: 1, campaign: capped, step: step(0) },
      { id: 2, campaign: capped, step: step(1) },
      { id: 3, campaign: capped, step: step(0) },
      { id: 4, campaign: free, step: step(0) },
    ];
    expect(withinNewLeadCaps(work, new Map([[capped.id, 1]])).map((w) => w.id)).toEqual([1, 2, 4]);
    expect(withinNewLeadCaps(work, new Map([[capped.id, 0]])).map((w) => w.id)).toEqual([2, 4]);
  });
});

describe("variant choice", () => {
  const A = step(0, { variantGroup: "A" });
  const B = step(0, { variantGroup: "B" });
  it("one variant is always that one", () => {
    expect(pickVariant([A], new Map(), true).variantGroup).toBe("A");
  });
  it("picks at random when not optimising", () => {
    expect(pickVariant([A, B], new Map(), false, () => 0.2).variantGroup).toBe("A");
    expect(pickVariant([A, B], new Map(), false, () => 0.7).variantGroup).toBe("B");
  });
  it("leans to the better reply rate when optimising (Thompson sampling)", () => {
    const stats = new Map([
      [A.id, { sends: 200, replies: 60 }],
      [B.id, { sends: 200, replies: 2 }],
    ]);
    let seed = 7;
    const rand = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const picks = Array.from({ length: 200 }, () => pickVariant([A, B], stats, true, rand).variantGroup);
    expect(picks.filter((g) => g === "A").length).toBeGreaterThan(195);
  });
});

describe("holidays and blackout dates", () => {
  // Easter Monday 2026: a public holiday in Germany, an ordinary Monday in the United States.
  // 14:00 UTC is 16:00 in Berlin and 10:00 in New York, inside both windows.
  const EASTER_MONDAY = T("2026-04-06T14:00:00Z");
  const run = (over: Partial<Campaign>, due: DueLead[]) => {
    const c = campaign(over);
    const byMailbox = new Map<string, DueLead[]>();
    for (const d of due) byMailbox.set(d.mailboxId, [...(byMailbox.get(d.mailboxId) ?? []), d]);
    const plan = decide({
      now: EASTER_MONDAY,
      mailboxes: [...new Set(due.map((d) => d.mailboxId))].map((id) => mailbox(id)),
      sentToday: new Map(),
      due: byMailbox,
      campaigns: new Map([[c.id, c]]),
      steps: new Map([[c.id, [step(0)]]]),
      isSuppressed: () => false,
      firstToday: new Map(),
    });
    return plan.leads.map((d) => `${d.lead.leadId} ${d.kind} ${d.reason}${"until" in d ? ` ${iso(d.until)}` : ""}`);
  };
  const de = lead("de", { mailboxId: "mbx_de", timezone: "Europe/Berlin" });
  const us = lead("us", { mailboxId: "mbx_us", timezone: "America/New_York" });

  it("skips a German public holiday for a lead in Germany and sends to a lead in the US", () => {
    expect(run({ skipHolidays: true }, [de, us])).toEqual(["de defer holiday 2026-04-07T07:00:00.000Z", "us send due"]);
  });
  it("sends on the holiday when the campaign does not skip holidays", () => {
    expect(run({ skipHolidays: false }, [de, us])).toEqual(["de send due", "us send due"]);
  });
  it("reads the country from the lead's `country` field before its timezone", () => {
    const field = lead("us-in-berlin", { mailboxId: "mbx_de", timezone: "Europe/Berlin", customFields: { country: "us" } });
    expect(run({ skipHolidays: true }, [field])).toEqual(["us-in-berlin send due"]);
  });
  it("a blackout date shuts every lead's day in its own zone, and a holiday after it is skipped too", () => {
    expect(run({ blackoutDates: ["2026-04-06"] }, [us])).toEqual(["us defer blackout 2026-04-07T13:00:00.000Z"]);
    // Holiday today, blackout tomorrow: the German lead waits for Wednesday 09:00 in Berlin.
    expect(run({ skipHolidays: true, blackoutDates: ["2026-04-07"] }, [de])).toEqual(["de defer holiday 2026-04-08T07:00:00.000Z"]);
  });
  it("a lead with no country (no zone, no field) has only the blackout dates", () => {
    expect(run({ skipHolidays: true }, [lead("nowhere", { mailboxId: "mbx_x" })])).toEqual(["nowhere send due"]);
  });
});
