import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/clock";
import { call } from "@/test/helpers";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { POST as PREVIEW } from "@/app/api/v1/campaigns/[id]/steps/preview/route";
import { sendDue } from "./engine";

const suite = mailSuite({ domain: "spin.test", users: { "sam@spin.test": "pw" } });
const ANY_TIME = { sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 0 };
const SUBJECT = "{Quick|Short|Small} question, {{firstName}}";
const BODY = "{Hi|Hello|Hey} {{firstName}},\n\n{Worth a {call|chat}|Shall we talk} this week? \\{not spun\\}";
const LEADS = 12;

describe("spintax in real sends", () => {
  it("each lead receives the words its preview shows, spread over the choices; spin indexes show the others", async () => {
    const [mbx] = await connectMailboxes(suite.ws.fullKey, [{ email: "sam@spin.test", appPassword: "pw", senderName: "Sam" }]);
    const leads = Array.from({ length: LEADS }, (_, i) => ({ email: `p${i}@leads.test`, firstName: `P${i}` }));
    const { campaign, leadIds, stepsResponse, launched } = await launchCampaign(suite.ws.fullKey, {
      campaign: { name: "Spin", ...ANY_TIME },
      steps: [{ stepOrder: 0, subject: SUBJECT, bodyTemplate: BODY }],
      mailboxIds: [mbx.id],
      leads,
    });
    expect(launched.body.status, JSON.stringify(launched.body)).toBe("ACTIVE");
    const stepId = (stepsResponse.body as { steps: { id: string }[] }).steps[0].id;

    let sent = 0;
    for (let pass = 0; pass < 40 && sent < LEADS; pass++) {
      const report = await sendDue(getDb(), new ManualClock(new Date(Date.now() + pass * 300_000)));
      sent += report.sent;
    }
    expect(sent).toBe(LEADS);

    const greetings = new Set<string>();
    for (const [i, leadId] of leadIds.entries()) {
      const wire = suite.world.smtp.received.find((r) => r.to.includes(`p${i}@leads.test`));
      expect(wire, `p${i} received its email`).toBeDefined();
      const preview = await call(PREVIEW, "POST", "", { key: suite.ws.fullKey, params: { id: campaign.id }, body: { stepId, leadId } });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(wire!.parsed.subject).toBe(preview.body.subject);
      expect(wire!.parsed.text!.trim()).toBe(preview.body.text.trim());
      expect(preview.body.text).toContain("{not spun}");
      expect(preview.body.text).toMatch(new RegExp(`^(Hi|Hello|Hey) P${i},`));
      greetings.add(preview.body.text.split(" ")[0]);
    }
    // Twelve leads over three greetings: more than one is used (a constant pick would use one). Lead ids
    // are random, so all three is not certain (a 2 % miss); one for all twelve happens once in 177,000 runs.
    expect(greetings.size).toBeGreaterThanOrEqual(2);

    // One lead's preview at spin indexes 0 … choices − 1 shows every greeting.
    const shown = new Set<string>();
    let choices = 0;
    for (let spinIndex = 0; spinIndex < 3; spinIndex++) {
      const p = await call(PREVIEW, "POST", "", {
        key: suite.ws.fullKey,
        params: { id: campaign.id },
        body: { stepId, leadId: leadIds[0], spinIndex },
      });
      choices = p.body.spintax.choices;
      shown.add(p.body.text.split(" ")[0]);
    }
    expect(choices).toBe(3);
    expect(shown).toEqual(new Set(["Hi", "Hello", "Hey"]));

    // A draft of the saved step (stepId with the edited text) keeps the step's choices for the lead.
    const draft = await call(PREVIEW, "POST", "", {
      key: suite.ws.fullKey,
      params: { id: campaign.id },
      body: { stepId, leadId: leadIds[0], subject: SUBJECT, bodyTemplate: `${BODY}\nP.S. new line` },
    });
    const saved = await call(PREVIEW, "POST", "", {
      key: suite.ws.fullKey,
      params: { id: campaign.id },
      body: { stepId, leadId: leadIds[0] },
    });
    expect(draft.body.subject).toBe(saved.body.subject);
    expect(draft.body.text).toBe(`${saved.body.text.trimEnd()}\nP.S. new line`);
  });
});
