import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, emails, mailboxes } from "@/db/schema";
import { ManualClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { sendDue } from "@/lib/sending/engine";
import { call } from "@/test/helpers";
import { appendMessages } from "@/test/mail-messages";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { GET as LIST_REPLIES } from "@/app/api/v1/replies/route";
import { GET as CAMPAIGN_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as PATCH_SETTINGS } from "@/app/api/v1/campaigns/[id]/settings/route";
import { resumeAt } from "@/lib/sending/resume";
import { syncMailbox } from "./sync";

const suite = mailSuite({ domain: "ooo.test", users: { "olga@ooo.test": "pw" } });
const MONDAY = new Date("2026-12-07T15:00:00Z"); // 16:00 in Berlin, 15:00 in London, 10:00 in New York

function reply(o: { id: string; from: string; inReplyTo: string; body: string; auto?: boolean; language?: string }): string {
  return [
    `From: ${o.from}`,
    "To: Olga <olga@ooo.test>",
    "Subject: Re: Idea",
    `Message-ID: <${o.id}@lead.test>`,
    "Date: Mon, 07 Dec 2026 15:30:00 +0000",
    `In-Reply-To: ${o.inReplyTo}`,
    `References: ${o.inReplyTo}`,
    ...(o.auto ? ["Auto-Submitted: auto-replied"] : []),
    ...(o.language ? [`Content-Language: ${o.language}`] : []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body,
    "",
  ].join("\n");
}

describe("out-of-office resume through real SMTP and IMAP", () => {
  it("pauses until the date the reply names (or the default days), sends nothing before, and resumes in the lead's zone", async () => {
    const clock = new ManualClock(MONDAY);
    useClock(clock);
    const [mbx] = await connectMailboxes(suite.ws.fullKey, [{ email: "olga@ooo.test", appPassword: "pw" }]);
    const { campaign, leadIds, launched } = await launchCampaign(suite.ws.fullKey, {
      campaign: { name: "OOO", minGapMinutes: 0 },
      steps: [
        { stepOrder: 0, subject: "Idea", bodyTemplate: "Hi" },
        { stepOrder: 1, bodyTemplate: "Bump", delayHoursAfterPrevious: 48 },
      ],
      mailboxIds: [mbx.id],
      leads: [
        { email: "away@de.test", timezone: "Europe/Berlin" },
        { email: "nodate@us.test", timezone: "America/New_York" },
        { email: "person@uk.test", timezone: "Europe/London" },
      ],
    });
    expect(launched.body.status).toBe("ACTIVE");
    for (let i = 0; i < 3; i++) await sendDue(getDb(), clock);
    const sent = await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id));
    expect(sent).toHaveLength(3);
    const msgId = (to: string) => sent.find((e) => e.leadEmail === to)!.messageId;

    await appendMessages(suite.world.imap, { username: "olga@ooo.test", password: "pw" }, [
      reply({
        id: "a1",
        from: "away@de.test",
        inReplyTo: msgId("away@de.test"),
        auto: true,
        language: "de",
        body: "Vielen Dank für Ihre Nachricht. Ich bin ab dem 14.12.2026 wieder im Büro.",
      }),
      reply({
        id: "a2",
        from: "nodate@us.test",
        inReplyTo: msgId("nodate@us.test"),
        auto: true,
        body: "I am out of the office with limited access to email.",
      }),
      reply({ id: "a3", from: "person@uk.test", inReplyTo: msgId("person@uk.test"), body: "Not for us, thanks." }),
    ]);
    clock.set(new Date("2026-12-07T15:35:00Z"));
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, mbx.id));
    expect((await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m)).stored).toBe(3);

    const row = async (leadId: string) =>
      (
        await getDb()
          .select()
          .from(campaignLeads)
          .where(and(eq(campaignLeads.campaignId, campaign.id), eq(campaignLeads.leadId, leadId)))
      )[0];
    const [away, nodate, person] = leadIds;
    // Back on Monday 14 December: 09:00 in Berlin. No date: seven days after the reply (10:30 in New York, in its window).
    expect(await row(away)).toMatchObject({
      status: "ACTIVE",
      pausedUntil: new Date("2026-12-14T08:00:00Z"),
      pauseReason: "out_of_office",
    });
    expect(await row(nodate)).toMatchObject({
      status: "ACTIVE",
      pausedUntil: new Date("2026-12-14T15:30:00Z"),
      pauseReason: "out_of_office",
    });
    expect((await row(person)).status).toBe("REPLIED"); // a person's reply stops the sequence as before

    const listed = (await call(LIST_REPLIES, "GET", "/replies", { key: suite.ws.readKey })).body.replies as any[];
    const fromAway = listed.find((r) => r.leadId === away);
    expect(fromAway).toMatchObject({ intentClassification: "OUT_OF_OFFICE", returnDate: "2026-12-14" });
    expect(fromAway.returnDateText).toContain("14.12.2026");
    expect(listed.find((r) => r.leadId === nodate).returnDate).toBeNull();
    const shown = (await call(CAMPAIGN_LEADS, "GET", "", { key: suite.ws.readKey, params: { id: campaign.id } })).body.leads as any[];
    expect(shown.find((l: any) => l.leadId === away)).toMatchObject({
      pausedUntil: "2026-12-14T08:00:00.000Z",
      pauseReason: "out_of_office",
      sequence: "main",
    });

    // The follow-up is due on Wednesday, but both paused leads get nothing; a settings change does not lift the pause.
    clock.set(new Date("2026-12-09T14:30:00Z"));
    expect(
      (await call(PATCH_SETTINGS, "PATCH", "", { key: suite.ws.fullKey, params: { id: campaign.id }, body: { sendWindowEndHour: 18 } }))
        .status,
    ).toBe(200);
    for (let i = 0; i < 3; i++) await sendDue(getDb(), clock);
    expect(await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id))).toHaveLength(3);

    clock.set(new Date("2026-12-14T08:05:00Z")); // 09:05 in Berlin, 03:05 in New York
    for (let i = 0; i < 2; i++) await sendDue(getDb(), clock);
    const after = await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id));
    expect(after.filter((e) => e.stepOrder === 1).map((e) => e.leadEmail)).toEqual(["away@de.test"]);
    expect(await row(away)).toMatchObject({ pausedUntil: null, pauseReason: null });
    clock.set(new Date("2026-12-14T15:35:00Z"));
    await sendDue(getDb(), clock);
    const later = await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id));
    expect(
      later
        .filter((e) => e.stepOrder === 1)
        .map((e) => e.leadEmail)
        .sort(),
    ).toEqual(["away@de.test", "nodate@us.test"]);
  }, 60_000);
});

describe("resumeAt", () => {
  const c = {
    sendWindowStartHour: 9,
    sendWindowEndHour: 17,
    sendDaysOfWeek: [1, 2, 3, 4, 5],
    defaultTimezone: null,
    skipHolidays: true,
    blackoutDates: ["2026-12-29"],
    oooResume: true,
    oooDefaultPauseDays: 7,
    stopOnAutoReply: false,
  };
  const berlin = { timezone: "Europe/Berlin", customFields: null };
  const received = new Date("2026-12-18T10:00:00Z");
  it("resumes on the first open window on or after the return day, past weekends, holidays and blackout dates", () => {
    // Back on Christmas Day (a holiday in Germany), then a weekend, a Monday-after-Christmas that is no
    // German holiday (28th), so the 28th at 09:00 Berlin.
    expect(resumeAt(c, berlin, "2026-12-25", received)?.toISOString()).toBe("2026-12-28T08:00:00.000Z");
    expect(resumeAt(c, berlin, "2026-12-29", received)?.toISOString()).toBe("2026-12-30T08:00:00.000Z"); // blackout
    expect(resumeAt({ ...c, skipHolidays: false }, berlin, "2026-12-25", received)?.toISOString()).toBe("2026-12-25T08:00:00.000Z");
  });
  it("pauses nothing for a return date already past, and the default days without a date", () => {
    expect(resumeAt(c, berlin, "2026-12-01", received)).toBeNull();
    expect(resumeAt(c, berlin, null, received)?.toISOString()).toBe("2026-12-28T08:00:00.000Z"); // 25th is Christmas Day
  });
});
