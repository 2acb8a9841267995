import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { sendDue } from "@/lib/sending/engine";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { connectMailboxes, launchCampaign } from "@/test/campaign-setup";
import { PATCH as PATCH_MAILBOX } from "@/app/api/v1/mailboxes/[id]/route";
import { GET as SCHEDULE } from "@/app/api/v1/campaigns/[id]/schedule/route";

afterAll(() => {
  useClock(systemClock);
  closeAllTransports();
});

/** Mailboxes x (3 a day) and y (4 a day) sending 30 leads a first email and a follow-up a day later, from Tuesday, Berlin time. */
async function launchForecastCampaign(ws: TestWorkspace): Promise<string> {
  const ids: string[] = [];
  for (const [e, cap] of [
    ["x", 3],
    ["y", 4],
  ] as const) {
    const [{ id }] = await connectMailboxes(ws.fullKey, [{ email: `${e}@fc.test`, appPassword: "pw" }]);
    await call(PATCH_MAILBOX, "PATCH", "", { key: ws.fullKey, params: { id }, body: { dailySendCap: cap } });
    ids.push(id);
  }
  const { campaign } = await launchCampaign(ws.fullKey, {
    campaign: { name: "F", defaultTimezone: "Europe/Berlin", minGapMinutes: 0, startAt: "2026-11-03T00:00:00Z" },
    steps: [
      { stepOrder: 0, subject: "S", bodyTemplate: "B" },
      { stepOrder: 1, bodyTemplate: "F", delayHoursAfterPrevious: 24 },
    ],
    mailboxIds: ids,
    leads: Array.from({ length: 30 }, (_, i) => ({ email: `f${i}@leads.test` })),
  });
  return campaign.id;
}

/** The week's forecast: nothing before startAt or on Saturday, the caps on a sending day, the first send at 09:00 Berlin. */
function expectWeekForecast(f: any) {
  expect(f.totals.map((d: any) => d.date)).toEqual([
    "2026-11-02",
    "2026-11-03",
    "2026-11-04",
    "2026-11-05",
    "2026-11-06",
    "2026-11-07",
    "2026-11-08",
  ]);
  expect(f.totals[0]).toMatchObject({ firstEmails: 0, followUps: 0 }); // before startAt
  expect(f.totals[5]).toMatchObject({ firstEmails: 0, followUps: 0 }); // Saturday
  expect(f.totals[1].firstEmails + f.totals[1].followUps).toBe(7); // caps 3 + 4
  expect(f.upcoming[0]).toMatchObject({ stepOrder: 0, at: "2026-11-03T08:00:00.000Z" }); // 09:00 Berlin
  expect(f.notes.join(" ")).toContain("Nothing is sent before");
}

/** How many emails each mailbox sent on each UTC day, keyed `<mailboxId>|<date>`. */
function sendsPerMailboxDay(rows: (typeof emails.$inferSelect)[]): Map<string, number> {
  const actual = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.mailboxId}|${r.createdAt.toISOString().slice(0, 10)}`;
    actual.set(key, (actual.get(key) ?? 0) + 1);
  }
  return actual;
}

describe("GET /campaigns/<id>/schedule", () => {
  it("forecasts per mailbox and day what the engine then really sends", async () => {
    const world = await startMailWorld({ domain: "fc.test", users: { "x@fc.test": "pw", "y@fc.test": "pw" } });
    const ws = await makeWorkspace();
    const clock = new ManualClock(new Date("2026-11-02T06:00:00Z")); // Monday
    useClock(clock);
    const campaignId = await launchForecastCampaign(ws);

    const f = (await call(SCHEDULE, "GET", "/campaigns/x/schedule?days=7", { key: ws.readKey, params: { id: campaignId } })).body;
    expectWeekForecast(f);

    // Caps bind every sending day, so 10-minute ticks give the same daily counts as the forecast's 5.
    for (let t = 0; t < 7 * 144; t++) {
      await sendDue(getDb(), clock);
      clock.advance(10 * 60_000);
    }
    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, campaignId));
    const actual = sendsPerMailboxDay(rows);
    for (const m of f.mailboxes) {
      for (const d of m.perDay)
        expect([m.email, d.date, actual.get(`${m.mailboxId}|${d.date}`) ?? 0]).toEqual([m.email, d.date, d.firstEmails + d.followUps]);
    }
    const firstSend = rows.map((r) => r.createdAt.toISOString()).sort()[0];
    expect(firstSend).toBe(f.upcoming[0].at);
    closeAllTransports(); // kept SMTP connections would hold the peer's close for its 30 s idle timeout
    await world.close();
  }, 120_000);
});

describe("holidays and blackout dates in the forecast and the sends", () => {
  it("skips Easter Monday for a lead in Germany, sends to a lead in the US, and lists the skipped days per country", async () => {
    const world = await startMailWorld({ domain: "hol.test", users: { "h@hol.test": "pw" } });
    const ws = await makeWorkspace();
    const clock = new ManualClock(new Date("2026-04-06T06:00:00Z")); // Easter Monday
    useClock(clock);
    const [mbx] = await connectMailboxes(ws.fullKey, [{ email: "h@hol.test", appPassword: "pw" }]);
    const { campaign, launched } = await launchCampaign(ws.fullKey, {
      campaign: { name: "Hol", minGapMinutes: 0, skipHolidays: true, blackoutDates: ["2026-04-08", "2026-05-01"] },
      steps: [{ stepOrder: 0, subject: "S", bodyTemplate: "B" }],
      mailboxIds: [mbx.id],
      leads: [
        { email: "de@leads.test", timezone: "Europe/Berlin" },
        { email: "us@leads.test", timezone: "America/New_York" },
      ],
    });
    expect(launched.body.status, JSON.stringify(launched.body)).toBe("ACTIVE");
    const f = (await call(SCHEDULE, "GET", "/campaigns/x/schedule?days=5", { key: ws.readKey, params: { id: campaign.id } })).body;
    expect(f.skippedDays).toEqual({
      blackout: ["2026-04-08"],
      holidays: [{ country: "DE", leads: 1, days: [{ date: "2026-04-06", name: "Easter Monday" }] }],
    });
    // The US lead is the first send (09:00 in New York on the Monday); the German one waits for Tuesday 09:00 in Berlin.
    expect(f.upcoming.map((u: any) => [u.email, u.at])).toEqual([
      ["us@leads.test", "2026-04-06T13:00:00.000Z"],
      ["de@leads.test", "2026-04-07T07:00:00.000Z"],
    ]);

    clock.set(new Date("2026-04-06T14:00:00Z")); // 16:00 in Berlin, 10:00 in New York
    for (let i = 0; i < 3; i++) await sendDue(getDb(), clock);
    expect(world.smtp.received.flatMap((r) => r.to)).toEqual(["us@leads.test"]);
    clock.set(new Date("2026-04-07T07:05:00Z"));
    await sendDue(getDb(), clock);
    expect(world.smtp.received.flatMap((r) => r.to).sort()).toEqual(["de@leads.test", "us@leads.test"]);
    closeAllTransports(); // kept SMTP connections would hold the peer's close for its 30 s idle timeout
    await world.close();
  }, 60_000);
});
