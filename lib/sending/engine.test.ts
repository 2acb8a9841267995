import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { getDb } from "@/db/client";
import { campaignLeads, emails, mailboxes, suppressions } from "@/db/schema";
import { ManualClock, useClock } from "@/lib/clock";
import { call } from "@/test/helpers";
import { connectMailboxes, launchCampaign, workspaceEvents, mailSuite } from "@/test/campaign-setup";
import { PATCH as PATCH_MAILBOX } from "@/app/api/v1/mailboxes/[id]/route";
import { sendDue } from "./engine";

const clock = new ManualClock(new Date("2026-11-02T00:00:00Z")); // a Monday
const START_AT = "2026-11-03T00:00:00Z";
const BOB_BREAKS_AT = new Date("2026-11-03T09:00:00Z"); // an hour into the first sending day, with work left

const LEADS = [
  { email: "ny@leads.test", firstName: "Nia", timezone: "America/New_York" },
  { email: "berlin@leads.test", firstName: "Ben", timezone: "Europe/Berlin" },
  { email: "tokyo@leads.test", firstName: "Taro", timezone: "Asia/Tokyo" },
  { email: "none@leads.test", firstName: "Nell" },
  // Assignment alternates ann, bob, ann… (balanced, ties to the first): these two land on ann.
  { email: "hard@bounce.test", firstName: "Hal", timezone: "Europe/Berlin" },
  { email: "bulk-bob@leads.test", firstName: "Bo", timezone: "Europe/Paris" },
  { email: "reply@leads.test", firstName: "Rae", timezone: "Europe/London" },
  ...Array.from({ length: 16 }, (_, i) => ({ email: `bulk${i}@leads.test`, firstName: `B${i}`, timezone: "Europe/Paris" })),
];

const suite = mailSuite({
  domain: "acme.test",
  users: { "ann@acme.test": "pw-ann", "bob@acme.test": "pw-bob" },
  rejectRecipients: ["hard@bounce.test"],
});

type EmailRow = typeof emails.$inferSelect;

/** Ann (capped at 5 a day) and Bob in the pool of an A/B campaign with one follow-up, launched for LEADS. */
async function launchWeek() {
  const [ann, bob] = await connectMailboxes(suite.ws.fullKey, [
    { email: "ann@acme.test", appPassword: "pw-ann", senderName: "Ann" },
    { email: "bob@acme.test", appPassword: "pw-bob", senderName: "Bob" },
  ]);
  await call(PATCH_MAILBOX, "PATCH", "", { key: suite.ws.fullKey, params: { id: ann.id }, body: { dailySendCap: 5 } });
  const { campaign, leadIds, added, launched } = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: "Week", startAt: START_AT, dailyNewLeadCap: 10, minGapMinutes: 9 },
    steps: [
      { stepOrder: 0, variantGroup: "A", subject: "Idea for {{firstName}}", bodyTemplate: "Hi {{firstName}}, A" },
      { stepOrder: 0, variantGroup: "B", subject: "Question, {{firstName}}", bodyTemplate: "Hi {{firstName}}, B" },
      { stepOrder: 1, bodyTemplate: "Following up, {{firstName}}", delayHoursAfterPrevious: 24 },
    ],
    mailboxIds: [ann.id, bob.id],
    leads: LEADS,
  });
  expect([added[4].mailboxId, added[6].mailboxId]).toEqual([ann.id, ann.id]);
  expect(launched.body.status).toBe("ACTIVE");
  return { ann, bob, campaignId: campaign.id as string, replyLeadId: leadIds[6] };
}

/** Five-minute ticks until Monday next week; Bob's password changes at BOB_BREAKS_AT, the reply lead answers its first email. */
async function runWeek(campaignId: string, replyLeadId: string) {
  useClock(clock);
  let broke = false;
  const end = new Date("2026-11-09T00:00:00Z").getTime();
  while (clock.now().getTime() < end) {
    if (!broke && clock.now() >= BOB_BREAKS_AT) {
      suite.world.smtp.setPassword("bob@acme.test", "changed-on-server");
      broke = true;
    }
    await sendDue(getDb(), clock);
    // The reply lead answers right after its first email.
    await getDb()
      .update(campaignLeads)
      .set({ status: "REPLIED" })
      .where(
        and(
          eq(campaignLeads.campaignId, campaignId),
          eq(campaignLeads.leadId, replyLeadId),
          eq(campaignLeads.nextStepOrder, 1),
          eq(campaignLeads.status, "ACTIVE"),
        ),
      );
    clock.advance(5 * 60_000);
  }
}

/** Every email not FAILED went out after startAt, Monday–Friday in the lead's zone (UTC without one), 9–17 where it has one. */
function expectInLeadWindows(rows: EmailRow[]) {
  const leadTz = new Map(LEADS.map((l) => [l.email, l.timezone ?? null]));
  for (const e of rows.filter((r) => r.status !== "FAILED")) {
    const at = e.createdAt;
    expect(at >= new Date(START_AT)).toBe(true);
    const tz = leadTz.get(e.leadEmail) ?? null;
    const local = DateTime.fromJSDate(at, { zone: tz ?? "UTC" });
    expect([1, 2, 3, 4, 5]).toContain(local.weekday); // Monday–Friday in the lead's zone (UTC without one)
    if (tz) {
      expect(local.hour).toBeGreaterThanOrEqual(9);
      expect(local.hour).toBeLessThan(17);
    }
  }
}

/** Mailbox caps per UTC day, first-email cap per (UTC) campaign day, and the gap between two sends. */
function expectCapsAndGaps(rows: EmailRow[], annId: string, bobId: string) {
  const perMailboxDay = new Map<string, number>();
  const firstsPerDay = new Map<string, number>();
  for (const e of rows.filter((r) => r.status !== "FAILED")) {
    const day = e.createdAt.toISOString().slice(0, 10);
    perMailboxDay.set(`${e.mailboxId}|${day}`, (perMailboxDay.get(`${e.mailboxId}|${day}`) ?? 0) + 1);
    if (e.stepOrder === 0) firstsPerDay.set(day, (firstsPerDay.get(day) ?? 0) + 1);
  }
  for (const [k, n] of perMailboxDay) expect(n).toBeLessThanOrEqual(k.startsWith(annId) ? 5 : 20);
  for (const n of firstsPerDay.values()) expect(n).toBeLessThanOrEqual(10);
  expect(Math.max(...firstsPerDay.values())).toBe(10); // the cap was reached, so it was really tested
  for (const mId of [annId, bobId]) {
    const times = rows
      .filter((r) => r.mailboxId === mId)
      .map((r) => r.createdAt.getTime())
      .sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(9 * 60_000);
  }
}

/** Follow-ups: same mailbox, Re: + the first subject, threaded, at least 24 h later; never a step twice. */
function expectThreadedFollowUps(rows: EmailRow[], annId: string) {
  const byLead = new Map<string, EmailRow[]>();
  for (const e of rows.filter((r) => r.status !== "FAILED")) byLead.set(e.leadEmail, [...(byLead.get(e.leadEmail) ?? []), e]);
  let followUps = 0;
  for (const [, list] of byLead) {
    list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(new Set(list.map((e) => e.stepOrder)).size).toBe(list.length);
    if (list.length === 2) {
      followUps++;
      const [first, second] = list;
      expect(second.mailboxId).toBe(first.mailboxId);
      expect(second.subject).toBe(`Re: ${first.subject}`);
      expect(second.createdAt.getTime() - first.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600_000);
      const wire = suite.world.smtp.received.find((r) => `<${r.parsed.messageId?.replace(/^<|>$/g, "")}>` === second.messageId)!;
      expect(wire.parsed.inReplyTo).toBe(first.messageId);
      expect(wire.parsed.references).toContain(first.messageId);
      expect(wire.parsed.subject).toBe(`Re: ${first.subject}`);
      expect(wire.parsed.text).toContain("Following up,");
      expect(wire.from).toBe(first.mailboxId === annId ? "ann@acme.test" : "bob@acme.test");
    }
  }
  expect(followUps).toBeGreaterThan(3);
}

/** The hard bounce, the reply and Bob's failing login each stopped what they should. */
async function expectStops(rows: EmailRow[], bobId: string) {
  // The hard bounce: one attempt, BOUNCED HARD with the server's code, suppressed, nothing more.
  const hard = rows.filter((r) => r.leadEmail === "hard@bounce.test");
  expect(hard.map((r) => [r.status, r.bounceType, r.smtpCode])).toEqual([["BOUNCED", "HARD", "5.1.1"]]);
  expect((await getDb().select().from(suppressions).where(eq(suppressions.value, "hard@bounce.test"))).length).toBe(1);
  // The reply stopped the sequence after the first email.
  expect(rows.filter((r) => r.leadEmail === "reply@leads.test" && r.status === "SENT")).toHaveLength(1);
  // Bob's login started failing: nothing from him afterwards, LOGIN_FAILING, one mailbox.disconnected.
  expect(rows.filter((r) => r.mailboxId === bobId && r.status === "SENT" && r.createdAt > BOB_BREAKS_AT)).toEqual([]);
  const [bobRow] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, bobId));
  expect(bobRow.loginFailingSince).not.toBeNull();
  expect((await workspaceEvents(suite.ws.workspaceId, "mailbox.disconnected")).length).toBe(1);
}

describe("a week of sending with the fake clock", () => {
  it("sends in each lead's window and days, after startAt, within caps and gaps, threads follow-ups, and stops on bounce, reply and a failing login", async () => {
    const { ann, bob, campaignId, replyLeadId } = await launchWeek();
    await runWeek(campaignId, replyLeadId);

    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, campaignId));
    const byMessageId = new Map(rows.map((r) => [r.messageId, r]));
    const received = suite.world.smtp.received.filter((r) =>
      byMessageId.has(r.parsed.messageId ? `<${r.parsed.messageId.replace(/^<|>$/g, "")}>` : ""),
    );
    const sent = rows.filter((r) => r.status === "SENT");
    expect(received.length).toBe(sent.length); // what the sink got is exactly what we recorded as sent
    expect(sent.length).toBeGreaterThan(15);

    expectInLeadWindows(rows);
    expectCapsAndGaps(rows, ann.id, bob.id);
    expectThreadedFollowUps(rows, ann.id);
    await expectStops(rows, bob.id);
    // Every send fired email.sent with the 6.2 fields.
    const sentEvents = await workspaceEvents(suite.ws.workspaceId, "email.sent");
    expect(sentEvents.length).toBe(sent.length);
    expect(sentEvents[0].data).toMatchObject({
      sendEventId: expect.stringMatching(/^eml_/),
      leadEmail: expect.any(String),
      mailboxEmail: expect.stringMatching(/@acme\.test$/),
    });
  }, 120_000);
});
