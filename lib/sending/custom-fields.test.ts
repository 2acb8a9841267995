import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaigns, emails } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { call } from "@/test/helpers";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { POST as PREVIEW } from "@/app/api/v1/campaigns/[id]/steps/preview/route";
import { sendDue } from "./engine";

const pool: string[] = [];

const suite = mailSuite({ domain: "fields.test", users: { "ann@fields.test": "pw", "bob@fields.test": "pw" } });

const ANY_TIME = { sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 1 };
const SUBJECT = "Hello {{firstName}} in [{{city}}]";
const BODY = "Hi {{firstName}}, how is [{{city}}]?";

/** Both mailboxes in the pool of a tracked campaign whose step uses {{city}}, which only the first of its two leads has. */
async function launchCityCampaign() {
  for (const m of await connectMailboxes(suite.ws.fullKey, [
    { email: "ann@fields.test", appPassword: "pw", senderName: "Ann" },
    { email: "bob@fields.test", appPassword: "pw", senderName: "Ann" },
  ]))
    pool.push(m.id);
  const { campaign, leadIds, stepsResponse, leadsResponse, launched } = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: "Fields", ...ANY_TIME, trackOpens: true, trackClicks: true },
    steps: [
      {
        stepOrder: 0,
        subject: SUBJECT,
        bodyTemplate: BODY,
        bodyHtmlTemplate: '<p>Hi {{firstName}}, how is [{{city}}]? <a href="https://example.com/x">Look</a></p>',
      },
    ],
    mailboxIds: pool,
    leads: [
      { email: "has@leads.test", firstName: "Hana", customFields: { city: "Lyon" } },
      { email: "lacks@leads.test", firstName: "Lars" },
    ],
  });
  expect(stepsResponse.status, JSON.stringify(stepsResponse.body)).toBe(200);
  expect(leadsResponse.status, JSON.stringify(leadsResponse.body)).toBe(200);
  expect(launched.body.status, JSON.stringify(launched.body)).toBe("ACTIVE");
  const [, lacksId] = leadIds;
  return { campaignId: campaign.id as string, lacksId };
}

/** What preview shows for the lead without the field is what it receives. */
async function expectPreviewWithoutCity(campaignId: string, lacksId: string) {
  const preview = await call(PREVIEW, "POST", "", {
    key: suite.ws.fullKey,
    params: { id: campaignId },
    body: { subject: SUBJECT, bodyTemplate: BODY, stepOrder: 0, leadId: lacksId },
  });
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  expect(preview.body.subject).toBe("Hello Lars in []");
}

describe("custom fields in real sends (one renderer)", () => {
  it("a lead without a custom field another lead of the campaign has gets empty text in subject and body, as in preview; the row keeps the body sent", async () => {
    const { campaignId, lacksId } = await launchCityCampaign();
    await expectPreviewWithoutCity(campaignId, lacksId);

    const report = await sendDue(getDb(), new ManualClock(new Date()));
    expect(report).toMatchObject({ sent: 2, bounced: 0, failed: 0 });

    const wire = (to: string) => suite.world.smtp.received.find((r) => r.to.includes(to))!;
    const has = wire("has@leads.test");
    const lacks = wire("lacks@leads.test");
    expect(has.parsed.subject).toBe("Hello Hana in [Lyon]");
    expect(has.parsed.text).toContain("Hi Hana, how is [Lyon]?");
    expect(has.parsed.html).toContain("how is [Lyon]?");
    expect(lacks.parsed.subject).toBe("Hello Lars in []");
    expect(lacks.parsed.text).toContain("Hi Lars, how is []?");
    expect(lacks.parsed.html).toContain("how is []?");
    for (const r of [has, lacks]) {
      expect(`${r.parsed.subject}\n${r.parsed.text}\n${r.parsed.html}`).not.toContain("{{");
    }

    // The row keeps what was sent: the text part as sent, the HTML without the pixel and click redirects.
    const [row] = await getDb().select().from(emails).where(eq(emails.leadId, lacksId));
    expect(row.status).toBe("SENT");
    expect(row.subject).toBe("Hello Lars in []");
    expect(row.bodyText).toBe(lacks.parsed.text!.replace(/\n+$/, ""));
    expect(row.bodyHtml).toContain('how is []? <a href="https://example.com/x">Look</a>');
    expect(row.bodyHtml).not.toContain("/t/o/");
    expect(row.bodyHtml).not.toContain("/t/c/");
    expect(lacks.parsed.html).toContain("/t/o/"); // while the lead's copy is tracked
  });

  it("leaves a token no lead of the campaign has as literal text (rule 1), even when other campaigns' leads have that field", async () => {
    const mbx = pool[0];
    // `city` is known elsewhere in the workspace (the first campaign) but not among this campaign's leads.
    // An unknown token blocks the launch check; force the campaign active to see what the engine does.
    const { campaign: c } = await launchCampaign(suite.ws.fullKey, {
      campaign: { name: "Literal", ...ANY_TIME },
      steps: [{ stepOrder: 0, subject: "Re {{city}} {{region}}", bodyTemplate: "About {{region}} and {{city}}" }],
      mailboxIds: [mbx],
      leads: [{ email: "solo@leads.test", customFields: { region: "Rhône" } }],
    });
    await getDb().update(campaigns).set({ status: "ACTIVE" }).where(eq(campaigns.id, c.id));

    const report = await sendDue(getDb(), new ManualClock(new Date(Date.now() + 10 * 60_000)), { mailboxIds: [mbx] });
    expect(report).toMatchObject({ sent: 1 });
    const r = suite.world.smtp.received.find((x) => x.to.includes("solo@leads.test"))!;
    expect(r.parsed.subject).toBe("Re {{city}} Rhône");
    expect(r.parsed.text).toContain("About Rhône and {{city}}");
  });
});
