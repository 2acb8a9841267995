import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { trackingDomains } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { sendDue } from "./engine";

const suite = mailSuite({ domain: "tdsend.test", users: { "ann@tdsend.test": "pw", "bob@tdsend.test": "pw" } });
const ANY_TIME = { sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 1 };
const TRACKED = { ...ANY_TIME, trackOpens: true, trackClicks: true, unsubscribeHeader: true };
const saved = process.env.APP_URL;

beforeAll(() => {
  process.env.APP_URL = "https://app.tdsend.test";
});
afterAll(() => {
  if (saved === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = saved;
});

async function domain(workspaceId: string, name: string, status: "VERIFIED" | "FAILING", isDefault = false) {
  const id = newId("tdm");
  await getDb()
    .insert(trackingDomains)
    .values({ id, workspaceId, domain: name, cnameTarget: "app.tdsend.test", status, verifiedAt: new Date(), isDefault });
  return id;
}

const step = {
  stepOrder: 0,
  subject: "Hi {{firstName}}",
  bodyTemplate: "Hi {{firstName}}",
  bodyHtmlTemplate: '<p>Hi {{firstName}} <a href="https://example.com/offer">offer</a></p>',
};

describe("tracking links of a real send", () => {
  it("point the pixel, click redirect and List-Unsubscribe at the campaign's VERIFIED domain, else the VERIFIED default", async () => {
    const ws = suite.ws;
    const own = await domain(ws.workspaceId, "links.own.test", "VERIFIED");
    const failing = await domain(ws.workspaceId, "links.failing.test", "FAILING");
    await domain(ws.workspaceId, "links.default.test", "VERIFIED", true);
    const [ann, bob] = await connectMailboxes(ws.fullKey, [
      { email: "ann@tdsend.test", appPassword: "pw", senderName: "Ann" },
      { email: "bob@tdsend.test", appPassword: "pw", senderName: "Bob" },
    ]);
    for (const [name, trackingDomainId, mailbox, lead] of [
      ["Own", own, ann.id, "own@leads.test"],
      ["Fallback", failing, bob.id, "fallback@leads.test"],
    ]) {
      const { launched } = await launchCampaign(ws.fullKey, {
        campaign: { name, ...TRACKED, trackingDomainId },
        steps: [step],
        mailboxIds: [mailbox],
        leads: [{ email: lead, firstName: name }],
      });
      expect(launched.body.status, JSON.stringify(launched.body)).toBe("ACTIVE");
    }
    const report = await sendDue(getDb(), new ManualClock(new Date()));
    expect(report).toMatchObject({ sent: 2, failed: 0 });

    const wire = (to: string) => suite.world.smtp.received.find((r) => r.to.includes(to))!;
    for (const [to, host] of [
      ["own@leads.test", "links.own.test"],
      ["fallback@leads.test", "links.default.test"],
    ]) {
      const m = wire(to);
      const html = String(m.parsed.html);
      expect(html).toContain(`https://${host}/t/o/`);
      expect(html).toContain(`https://${host}/t/c/`);
      expect(html).not.toContain("app.tdsend.test");
      const header = m.parsed.headerLines.find((h) => h.key === "list-unsubscribe")?.line ?? "";
      expect(header).toContain(`<https://${host}/u/`);
    }
  });
});
