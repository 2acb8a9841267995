import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, emails, mailboxes, suppressions } from "@/db/schema";
import { ManualClock, useClock } from "@/lib/clock";
import { call } from "@/test/helpers";
import { connectMailboxes, launchCampaign, workspaceEvents, mailSuite } from "@/test/campaign-setup";
import { GET as STATS } from "@/app/api/v1/campaigns/[id]/stats/route";
import { GET as TIMESERIES } from "@/app/api/v1/campaigns/[id]/timeseries/route";
import { GET as TRENDS } from "@/app/api/v1/campaigns/sent-trends/route";
import { GET as ACTIVITY } from "@/app/api/v1/campaigns/[id]/activity/route";
import { GET as LIST_CAMPAIGNS } from "@/app/api/v1/campaigns/route";
import { GET as OPEN } from "@/app/t/o/[token]/route";
import { GET as CLICK } from "@/app/t/c/[token]/route";
import { flushTracking } from "@/lib/analytics/tracking-answer";
import { GET as UNSUB_PAGE, POST as UNSUB } from "@/app/u/[token]/route";
import { sendDue } from "./engine";

const clock = new ManualClock(new Date("2026-11-03T10:00:00Z")); // Tuesday

const suite = mailSuite({
  domain: "track.test",
  users: { "tia@track.test": "pw" },
  rejectRecipients: ["gone1@x.test", "gone2@x.test"],
});

async function launch(
  leadsIn: { email: string; firstName?: string }[],
  settings: Record<string, unknown>,
  steps: Record<string, unknown>[],
) {
  const [mbx] = await connectMailboxes(suite.ws.fullKey, [{ email: "tia@track.test", appPassword: "pw", senderName: "Tia" }]);
  const { campaign: c, leadIds } = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: `T${Math.random()}`, minGapMinutes: 0, ...settings },
    steps,
    mailboxIds: [mbx.id],
    leads: leadsIn,
  });
  return { c, mbx, leadIds };
}

async function drain(n = 20) {
  useClock(clock);
  for (let i = 0; i < n; i++) {
    await sendDue(getDb(), clock);
    clock.advance(60_000);
  }
}

/** A person reading in Outlook on Windows (a request with no user agent is a script's, not counted). */
const OUTLOOK = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)";
const req = (url: string, method = "GET") => new Request(url, { method, headers: { "user-agent": OUTLOOK } });
const params = (token: string) => ({ params: Promise.resolve({ token }) });

type EmailRow = typeof emails.$inferSelect;

/** The tracking pixel's and the click redirect's tokens in the email's HTML, and its List-Unsubscribe header. */
function trackingLinks(wire: (typeof suite.world.smtp.received)[number]) {
  const html = String(wire.parsed.html); // decoded from quoted-printable
  const pixel = /src="http:\/\/localhost:\d+\/t\/o\/([^"]+)"/.exec(html)!;
  expect(pixel).not.toBeNull();
  const link = /href="http:\/\/localhost:\d+\/t\/c\/([^"?]+)\?url=([^"]+)"/.exec(html)!;
  expect(decodeURIComponent(link[2].replace(/&amp;/g, "&"))).toBe("https://example.com/a?x=1&y=2");
  const head = wire.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " "); // unfolded header block
  const listUnsubscribe = /^List-Unsubscribe: (.*)$/m.exec(head)?.[1] ?? "";
  expect(listUnsubscribe).toMatch(/^<http:\/\/localhost:\d+\/u\/eml_[^>]+>$/);
  expect(/^List-Unsubscribe-Post: (.*)$/m.exec(head)?.[1]).toBe("List-Unsubscribe=One-Click");
  return { pixelToken: pixel[1], linkToken: link[1], listUnsubscribe };
}

/** Opens: two fetches, one event; a forged token still gets a pixel and records nothing. */
async function expectOneOpen(pixelToken: string, olive: EmailRow, campaignId: string) {
  clock.advance(20 * 60_000); // read twenty minutes after it arrived
  for (let i = 0; i < 2; i++) {
    const res = await OPEN(req("http://localhost/t/o/x"), params(pixelToken));
    expect(res.headers.get("content-type")).toBe("image/gif");
  }
  expect(await OPEN(req("http://localhost/t/o/x"), params(`${olive.id}.forged`)).then((r) => r.status)).toBe(200); // still a pixel, records nothing
  await flushTracking(); // the pixel answers before its hit is written (lib/analytics/tracking-writer.ts)
  const opened = await workspaceEvents(suite.ws.workspaceId, "email.opened");
  expect(opened).toHaveLength(1);
  expect(opened[0].data).toMatchObject({
    sendEventId: olive.id,
    leadEmail: "olive@x.test",
    mailboxEmail: "tia@track.test",
    campaignId,
    class: "human",
  });
}

/** Clicks: the signed URL redirects; another URL on the same token does not; two clicks, one event. */
async function expectSignedClicks(linkToken: string) {
  const url = "https://example.com/a?x=1&y=2";
  const ok = await CLICK(req(`http://localhost/t/c/${linkToken}?url=${encodeURIComponent(url)}`), params(linkToken));
  expect([ok.status, ok.headers.get("location")]).toEqual([302, url]);
  const evil = await CLICK(req(`http://localhost/t/c/${linkToken}?url=${encodeURIComponent("https://evil.test/")}`), params(linkToken));
  expect(evil.status).toBe(404);
  await CLICK(req(`http://localhost/t/c/${linkToken}?url=${encodeURIComponent(url)}`), params(linkToken));
  await flushTracking();
  const clicked = await workspaceEvents(suite.ws.workspaceId, "email.clicked");
  expect(clicked).toHaveLength(1);
  expect(clicked[0].data).toMatchObject({ url, clickedAt: expect.any(String) });
}

/** Stats: leads once, over leadsContacted; variants per step; the list, the time series and the trends agree. */
async function expectTrackedStats(campaignId: string) {
  const stats = (await call(STATS, "GET", "", { key: suite.ws.readKey, params: { id: campaignId } })).body;
  expect(stats).toMatchObject({
    sentCount: 2,
    leadsContacted: 2,
    openedCount: 1,
    openedRate: 0.5,
    clickedCount: 1,
    clickedRate: 0.5,
    bouncedCount: 0,
    opensTracked: true,
    clicksTracked: true,
  });
  expect(stats.variants).toEqual([
    expect.objectContaining({ stepOrder: 0, variantGroup: "A", sent: 2, opened: 1, clicked: 1 }),
    expect.objectContaining({ stepOrder: 1, variantGroup: null, sent: 0 }),
  ]);
  const list = (await call(LIST_CAMPAIGNS, "GET", "/campaigns", { key: suite.ws.readKey })).body.find((x: any) => x.id === campaignId);
  expect(list).toMatchObject({ sentCount: 2, openedCount: 1 });
  const ts = (await call(TIMESERIES, "GET", "/campaigns/x/timeseries?days=3", { key: suite.ws.readKey, params: { id: campaignId } })).body;
  expect(ts.series.map((d: any) => [d.date, d.sent])).toEqual([
    ["2026-11-01", 0],
    ["2026-11-02", 0],
    ["2026-11-03", 2],
  ]);
  const trends = (await call(TRENDS, "GET", "/campaigns/sent-trends?days=2", { key: suite.ws.readKey })).body;
  expect(trends).toEqual({ dates: ["2026-11-02", "2026-11-03"], trends: { [campaignId]: [0, 2] } });
  expect((await call(TRENDS, "GET", "/campaigns/sent-trends?days=91", { key: suite.ws.readKey })).status).toBe(400);
}

const suppressedCount = async (email: string) => (await getDb().select().from(suppressions).where(eq(suppressions.value, email))).length;

/** Unsubscribe: GET asks, POST (one-click) suppresses, stops the sequence, fires lead.unsubscribed; a bad token is 404. */
async function expectOneClickUnsubscribe(listUnsubscribe: string, olive: EmailRow, campaignId: string, leadId: string) {
  const token = /\/u\/([^>]+)>/.exec(listUnsubscribe)![1];
  const page = await UNSUB_PAGE(req("http://localhost/u/x"), params(token));
  expect(await page.text()).toContain('<form method="post">');
  expect(await suppressedCount("olive@x.test")).toBe(0);
  const done = await UNSUB(req("http://localhost/u/x", "POST"), params(token));
  expect(await done.text()).toContain("You are unsubscribed");
  expect(await suppressedCount("olive@x.test")).toBe(1);
  const [cl] = await getDb()
    .select()
    .from(campaignLeads)
    .where(and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.leadId, leadId)));
  expect(cl.status).toBe("UNSUBSCRIBED");
  const unsub = await workspaceEvents(suite.ws.workspaceId, "lead.unsubscribed");
  expect(unsub.map((e) => e.data)).toEqual([{ replyId: null, leadId, leadEmail: "olive@x.test", source: "link" }]);
  expect((await UNSUB(req("http://localhost/u/x", "POST"), params(`${olive.id}.bad`))).status).toBe(404);
}

describe("tracking, unsubscribe and stats", () => {
  it("tracks the first open and click, redirects only to the email's own URL, and one-click unsubscribes", async () => {
    const { c, leadIds } = await launch(
      [
        { email: "olive@x.test", firstName: "Olive" },
        { email: "pete@x.test", firstName: "Pete" },
      ],
      { trackOpens: true, trackClicks: true },
      [
        {
          stepOrder: 0,
          variantGroup: "A",
          subject: "Hi {{firstName}}",
          bodyTemplate: "See https://example.com/a",
          bodyHtmlTemplate: '<p>See <a href="https://example.com/a?x=1&amp;y=2">this</a></p>',
        },
        { stepOrder: 1, bodyTemplate: "Bump", delayHoursAfterPrevious: 48 },
      ],
    );
    await drain(5);
    const sent = await getDb().select().from(emails).where(eq(emails.campaignId, c.id));
    expect(sent.map((e) => e.status)).toEqual(["SENT", "SENT"]);
    const olive = sent.find((e) => e.leadEmail === "olive@x.test")!;
    const { pixelToken, linkToken, listUnsubscribe } = trackingLinks(suite.world.smtp.received.find((r) => r.to[0] === "olive@x.test")!);

    await expectOneOpen(pixelToken, olive, c.id);
    await expectSignedClicks(linkToken);
    await expectTrackedStats(c.id);
    await expectOneClickUnsubscribe(listUnsubscribe, olive, c.id, leadIds[0]);
  });

  it("pauses a mailbox whose bounce rate passes 1.8% with at least 2 bounces, firing mailbox.bounce_spike once", async () => {
    await getDb().update(mailboxes).set({ autoPausedAt: null, nextSendAt: null }).where(eq(mailboxes.email, "tia@track.test"));
    const { c } = await launch(
      [{ email: "gone1@x.test" }, { email: "gone2@x.test" }, ...Array.from({ length: 5 }, (_, i) => ({ email: `fine${i}@x.test` }))],
      {},
      [{ stepOrder: 0, subject: "Hello", bodyTemplate: "Hi" }],
    );
    await drain(12);
    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, c.id));
    const bounced = rows.filter((r) => r.status === "BOUNCED");
    expect(bounced.map((r) => [r.leadEmail, r.bounceType, r.smtpCode]).sort()).toEqual([
      ["gone1@x.test", "HARD", "5.1.1"],
      ["gone2@x.test", "HARD", "5.1.1"],
    ]);
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "tia@track.test"));
    expect(m.autoPausedAt).not.toBeNull();
    expect(m.autoPauseReason).toContain("above 1.8%");
    const spikes = await workspaceEvents(suite.ws.workspaceId, "mailbox.bounce_spike");
    expect(spikes).toHaveLength(1);
    expect(spikes[0].data).toMatchObject({ mailboxEmail: "tia@track.test", threshold: 0.018, bouncedCount: 2, action: "paused" });
    // Paused: the leads still waiting get nothing.
    const after = rows.length;
    await drain(5);
    expect((await getDb().select().from(emails).where(eq(emails.campaignId, c.id))).length).toBe(after);
    const log = (await call(ACTIVITY, "GET", "/campaigns/x/activity?status=BOUNCED", { key: suite.ws.readKey, params: { id: c.id } })).body;
    expect(log.total).toBe(2);
    expect(log.emails[0]).toMatchObject({
      status: "BOUNCED",
      bounceType: "HARD",
      smtpCode: "5.1.1",
      smtpResponse: expect.stringContaining("User unknown"),
      mailboxEmail: "tia@track.test",
    });
    const bouncedEvents = await workspaceEvents(suite.ws.workspaceId, "email.bounced");
    expect(bouncedEvents.map((e) => (e.data as any).bounceType)).toEqual(["HARD", "HARD"]);
  });
});
