import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as CHECK } from "@/app/api/v1/campaigns/[id]/check-spam-words/route";
import { prepareCampaign } from "@/test/campaign-setup";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { freePort } from "@/test/peers/ports";
import { type SpamFilters, startSpamFilters } from "@/test/peers/spam-filters";

/** The sequence check with RSPAMD_URL: each saved step, as sent to the sample lead, scored by a real rspamd. */

let filters: SpamFilters;
let ws: TestWorkspace;
let campaignId: string;
const saved = process.env.RSPAMD_URL;

beforeAll(async () => {
  filters = await startSpamFilters({ spamassassin: false });
  ws = await makeWorkspace();
  const m = await insertMailbox(ws.workspaceId, "ann@acmeanalytics.com", { senderName: "Ann Keller" });
  const { campaign } = await prepareCampaign(ws.fullKey, {
    campaign: { name: "Scored", trackOpens: true, trackClicks: true, unsubscribeHeader: true },
    steps: [
      {
        stepOrder: 0,
        subject: "Carrier invoices at {{companyName}}",
        bodyTemplate: "Hi {{firstName}},\n\nAre you the right person for carrier invoice audits at {{companyName}}?\n\nThanks,\nAnn",
      },
      { stepOrder: 1, bodyTemplate: "Hi {{firstName}}, bringing this back up in case it got buried.\n\nAnn", delayHoursAfterPrevious: 48 },
      // Written in HTML alone.
      {
        stepOrder: 2,
        bodyTemplate: "",
        bodyHtmlTemplate: "<p>Hi {{firstName}}, one last note: happy to send the case study if useful.</p>",
      },
    ],
    mailboxIds: [m.id],
    leads: [{ email: "dana@northwind-freight.com", firstName: "Dana", companyName: "Northwind Freight" }],
  });
  campaignId = campaign.id;
}, 420_000);
afterAll(async () => {
  if (saved === undefined) delete process.env.RSPAMD_URL;
  else process.env.RSPAMD_URL = saved;
  await filters?.close();
});

const check = () => call(CHECK, "POST", "", { key: ws.readKey, params: { id: campaignId } });

describe("POST /campaigns/{id}/check-spam-words with rspamd", () => {
  it("has no rspamd result without RSPAMD_URL", async () => {
    delete process.env.RSPAMD_URL;
    const res = await check();
    expect(res.status).toBe(200);
    expect(res.body.rspamd).toBeNull();
    expect(res.body.steps).toHaveLength(3);
  });

  it("scores every step, as sent, with the symbols that fired", async () => {
    process.env.RSPAMD_URL = `${filters.rspamdUrl}/`;
    const res = await check();
    expect(res.status).toBe(200);
    const r = res.body.rspamd;
    expect(r.error).toBeNull();
    expect(r.steps.map((s: { stepOrder: number }) => s.stepOrder)).toEqual([0, 1, 2]);
    const ids = res.body.steps.map((s: { stepId: string }) => s.stepId);
    expect(r.steps.map((s: { stepId: string }) => s.stepId)).toEqual(ids);
    for (const s of r.steps) {
      expect(typeof s.score).toBe("number");
      expect(s.action).toEqual(expect.any(String));
      const names = s.symbols.map((x: { name: string }) => x.name);
      // Written as the engine writes it: the unsubscribe headers and a Message-ID are there.
      expect(names).toContain("HAS_LIST_UNSUB");
      expect(names).not.toContain("MISSING_MID");
      expect(names).not.toContain("MISSING_DATE");
    }
    const fired = (i: number) => r.steps[i].symbols.filter((x: { score: number }) => x.score !== 0).map((x: { name: string }) => x.name);
    // Scored as coming from the local host: no points for the connection the message does not have yet.
    for (const i of [0, 1, 2]) expect(fired(i).filter((n: string) => n.startsWith("HFILTER_"))).toEqual([]);
    // The open pixel makes the URL count odd; a step written in HTML alone still has a text part.
    expect(fired(0)).toContain("URI_COUNT_ODD");
    expect(fired(2)).not.toContain("MIME_HTML_ONLY");
    const odd = r.steps[0].symbols.find((x: { name: string }) => x.name === "URI_COUNT_ODD");
    expect(odd.description).toEqual(expect.any(String));
  });

  it("reports an unreachable rspamd as an error, not a failed check", async () => {
    process.env.RSPAMD_URL = `http://127.0.0.1:${await freePort()}`;
    const res = await check();
    expect(res.status).toBe(200);
    expect(res.body.steps).toHaveLength(3);
    expect(res.body.rspamd.steps).toEqual([]);
    expect(res.body.rspamd.error).toMatch(/ECONNREFUSED/);
  });
});
