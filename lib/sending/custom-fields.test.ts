import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaigns, emails } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { POST as PREVIEW } from "@/app/api/v1/campaigns/[id]/steps/preview/route";
import { sendDue } from "./engine";
import { closeAllTransports } from "./transports";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const pool: string[] = [];

beforeAll(async () => {
  world = await startMailWorld({ domain: "fields.test", users: { "ann@fields.test": "pw", "bob@fields.test": "pw" } });
  ws = await makeWorkspace();
}, 60_000);
afterAll(async () => {
  closeAllTransports();
  await world.close();
});

describe("custom fields in real sends (spec 2.5.1 rule 2, one renderer)", () => {
  it("a lead without a custom field another lead of the campaign has gets empty text in subject and body, as in preview; the row keeps the body sent", async () => {
    for (const email of ["ann@fields.test", "bob@fields.test"])
      pool.push(
        (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email }, body: { appPassword: "pw", senderName: "Ann" } })).body.id,
      );
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
        key: ws.fullKey,
        body: {
          name: "Fields",
          sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6],
          sendWindowStartHour: 0,
          sendWindowEndHour: 24,
          minGapMinutes: 1,
          trackOpens: true,
          trackClicks: true,
        },
      })
    ).body;
    const steps = await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: {
        steps: [
          {
            stepOrder: 0,
            subject: "Hello {{firstName}} in [{{city}}]",
            bodyTemplate: "Hi {{firstName}}, how is [{{city}}]?",
            bodyHtmlTemplate: '<p>Hi {{firstName}}, how is [{{city}}]? <a href="https://example.com/x">Look</a></p>',
          },
        ],
      },
    });
    expect(steps.status, JSON.stringify(steps.body)).toBe(200);
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: pool } });
    const created = await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: {
        leads: [
          { email: "has@leads.test", firstName: "Hana", customFields: { city: "Lyon" } },
          { email: "lacks@leads.test", firstName: "Lars" },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [hasId, lacksId] = created.body.leadIds as string[];
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds: [hasId, lacksId] } });
    const launched = await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } });
    expect(launched.body.status, JSON.stringify(launched.body)).toBe("ACTIVE");

    // What preview shows for the lead without the field is what it receives.
    const preview = await call(PREVIEW, "POST", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: {
        subject: "Hello {{firstName}} in [{{city}}]",
        bodyTemplate: "Hi {{firstName}}, how is [{{city}}]?",
        stepOrder: 0,
        leadId: lacksId,
      },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.subject).toBe("Hello Lars in []");

    const report = await sendDue(getDb(), new ManualClock(new Date()));
    expect(report).toMatchObject({ sent: 2, bounced: 0, failed: 0 });

    const wire = (to: string) => world.smtp.received.find((r) => r.to.includes(to))!;
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
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
        key: ws.fullKey,
        body: { name: "Literal", sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 1 },
      })
    ).body;
    await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: { steps: [{ stepOrder: 0, subject: "Re {{city}} {{region}}", bodyTemplate: "About {{region}} and {{city}}" }] },
    });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: [mbx] } });
    // `city` is known elsewhere in the workspace (the first campaign) but not among this campaign's leads.
    const created = await call(CREATE_LEADS, "POST", "/leads", {
      key: ws.fullKey,
      body: { leads: [{ email: "solo@leads.test", customFields: { region: "Rhône" } }] },
    });
    const [soloId] = created.body.leadIds as string[];
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds: [soloId] } });
    // An unknown token blocks the launch check; force the campaign active to see what the engine does.
    await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } });
    await getDb().update(campaigns).set({ status: "ACTIVE" }).where(eq(campaigns.id, c.id));

    const report = await sendDue(getDb(), new ManualClock(new Date(Date.now() + 10 * 60_000)), { mailboxIds: [mbx] });
    expect(report).toMatchObject({ sent: 1 });
    const r = world.smtp.received.find((x) => x.to.includes("solo@leads.test"))!;
    expect(r.parsed.subject).toBe("Re {{city}} Rhône");
    expect(r.parsed.text).toContain("About Rhône and {{city}}");
  });
});
