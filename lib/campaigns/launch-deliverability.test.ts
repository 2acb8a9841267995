import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { GET as LAUNCH_CHECK } from "@/app/api/v1/campaigns/[id]/launch-check/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { getDb } from "@/db/client";
import { campaigns, domains, leads, mailboxes, trackingDomains } from "@/db/schema";
import { prepareCampaign } from "@/test/campaign-setup";
import { insertEmail, insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { TRACKED_HTML_MIN_TEXT, visibleText } from "./launch-deliverability";

const DELIVERABILITY = [
  "DOMAIN_NOT_AUTHENTICATED",
  "MAILBOX_NOT_WARMED",
  "EMPTY_VARIABLES",
  "SPAM_WORDS",
  "TRACKING_SHARED_DOMAIN",
  "TRACKED_SHORT_HTML",
];

const LONG = `${"We help teams like yours book more meetings without hiring another rep. ".repeat(8)}Worth a short call next week?`;
const tag = () => randomBytes(3).toString("hex");

interface Entry {
  code: string;
  message: string;
  count?: number;
  stepId?: string;
  mailboxIds?: string[];
}

async function check(ws: TestWorkspace, id: string): Promise<{ ready: boolean; blockers: Entry[]; warnings: Entry[] }> {
  const r = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, params: { id } });
  expect(r.status).toBe(200);
  return r.body;
}

const of = (warnings: Entry[], code: string) => warnings.filter((w) => w.code === code);

async function setDomain(email: string, workspaceId: string, status: "PASS" | "MISSING" | "WARN", mx = status) {
  const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, email));
  await getDb()
    .update(domains)
    .set({ spfStatus: status, dkimStatus: status, dmarcStatus: status, mxStatus: mx, lastCheckedAt: new Date() })
    .where(eq(domains.id, m.domainId));
  expect(m.workspaceId).toBe(workspaceId);
}

/**
 * A campaign as a new user builds it: a bare domain, a new mailbox with warmup off, {{pain}} on 2 of 10
 * leads, opens and clicks tracked through the shared host, a short step and a step with spam words.
 */
async function riskyCampaign(ws: TestWorkspace) {
  const t = tag();
  const bare = await insertMailbox(ws.workspaceId, `new@bare-${t}.test`);
  await setDomain(bare.email, ws.workspaceId, "MISSING");
  const unchecked = await insertMailbox(ws.workspaceId, `fresh@unchecked-${t}.test`, { warmupStatus: "STEADY" });
  const leadRows = Array.from({ length: 10 }, (_, i) => ({
    email: `l${i}-${t}@lead.test`,
    firstName: `L${i}`,
    timezone: "Europe/Berlin",
    ...(i < 2 ? { customFields: { pain: "slow onboarding" } } : {}),
  }));
  const prepared = await prepareCampaign(ws.fullKey, {
    campaign: { name: `Risky ${t}`, defaultTimezone: "Europe/Berlin", trackOpens: true, trackClicks: true },
    steps: [
      { stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: `Hi {{firstName}}, you mentioned {{pain}}. ${LONG}` },
      { stepOrder: 1, bodyTemplate: "", bodyHtmlTemplate: "<p>Hi {{firstName}}, any thoughts?</p>", delayHoursAfterPrevious: 48 },
      { stepOrder: 2, bodyTemplate: `Act now: this offer is guaranteed to work. ${LONG}`, delayHoursAfterPrevious: 48 },
    ],
    mailboxIds: [bare.id, unchecked.id],
    leads: leadRows,
  });
  expect(prepared.stepsResponse.status).toBe(200);
  const steps: { id: string; stepOrder: number }[] = prepared.stepsResponse.body.steps ?? prepared.stepsResponse.body;
  const byOrder = (n: number) => steps.find((s) => s.stepOrder === n)!.id;
  return { c: prepared.campaign, bare, unchecked, steps: [byOrder(0), byOrder(1), byOrder(2)] };
}

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

describe("launch check: what hurts deliverability", () => {
  it("warns about each risk with its count, step and mailboxes, stays ready and launches without a confirm", async () => {
    const { c, bare, unchecked, steps } = await riskyCampaign(ws);
    const r = await check(ws, c.id);
    expect(r.ready).toBe(true);
    expect(r.blockers).toEqual([]);

    const domainWarnings = of(r.warnings, "DOMAIN_NOT_AUTHENTICATED");
    expect(domainWarnings).toHaveLength(2);
    const bareDomain = domainWarnings.find((w) => w.message.startsWith(bare.email.split("@")[1]))!;
    expect(bareDomain).toMatchObject({ count: 1, mailboxIds: [bare.id] });
    expect(bareDomain.message).toContain("no SPF record, no DKIM record, no DMARC record");
    expect(bareDomain.message).toContain("Gmail and Yahoo refuse bulk mail without all three");
    expect(bareDomain.message).toContain("Fix:");
    const neverChecked = domainWarnings.find((w) => w.mailboxIds?.includes(unchecked.id))!;
    expect(neverChecked.message).toContain("not checked yet — run the domain check");
    expect(neverChecked.mailboxIds).toEqual([unchecked.id]);

    // Only the mailbox with warmup off: the other one is warming steadily.
    expect(of(r.warnings, "MAILBOX_NOT_WARMED")).toEqual([
      expect.objectContaining({ count: 1, mailboxIds: [bare.id], message: expect.stringContaining(bare.email) }),
    ]);

    // {{pain}} is empty for 8 of the 10 leads in step 1; firstName is filled for everyone.
    expect(of(r.warnings, "EMPTY_VARIABLES")).toEqual([
      expect.objectContaining({
        count: 8,
        stepId: steps[0],
        message: expect.stringMatching(/^\{\{pain\}\} is empty for 8 leads in step 1/),
      }),
    ]);

    const spam = of(r.warnings, "SPAM_WORDS");
    expect(spam).toHaveLength(1);
    expect(spam[0]).toMatchObject({ stepId: steps[2], count: 2 });
    expect(spam[0].message).toContain('"act now", "guaranteed"');

    const shared = of(r.warnings, "TRACKING_SHARED_DOMAIN");
    expect(shared).toHaveLength(1);
    expect(shared[0].message).toContain("tracks opens and clicks");
    expect(shared[0].message).toContain("Settings → Tracking domains");

    const short = of(r.warnings, "TRACKED_SHORT_HTML");
    expect(short.map((w) => w.stepId)).toEqual([steps[1]]);
    expect(short[0].count).toBe("Hi {{firstName}}, any thoughts?".length);
    expect(short[0].message).toContain("step 2 has");

    // Warnings only: the launch needs no confirm.
    const launched = await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE" } });
    expect(launched.status).toBe(200);
    expect(launched.body.launchReport.warnings.map((w: Entry) => w.code)).toEqual(expect.arrayContaining(DELIVERABILITY));
  });

  it("says nothing once the domains are authenticated, the mailboxes warm, the variables filled, tracking on a verified default and the steps long", async () => {
    const { c, bare, unchecked, steps } = await riskyCampaign(ws);
    await setDomain(bare.email, ws.workspaceId, "PASS", "MISSING"); // MX is not part of sender authentication
    await setDomain(unchecked.email, ws.workspaceId, "WARN"); // e.g. DMARC p=none: the record is there
    await insertEmail(ws.workspaceId, bare.id, { sentAt: new Date() }); // warmup off, but it has sent before
    const ids = (
      await getDb().select({ id: leads.id, cf: leads.customFields }).from(leads).where(eq(leads.workspaceId, ws.workspaceId))
    ).map((l) => l.id);
    for (const id of ids)
      await getDb()
        .update(leads)
        .set({ customFields: { pain: "slow onboarding" } })
        .where(eq(leads.id, id));
    await getDb()
      .insert(trackingDomains)
      .values({
        id: `tdm_${tag()}`,
        workspaceId: ws.workspaceId,
        domain: `track.${tag()}.test`,
        cnameTarget: "x.test",
        status: "VERIFIED",
        isDefault: true,
      });
    const { campaignSteps } = await import("@/db/schema");
    await getDb()
      .update(campaignSteps)
      .set({ bodyHtmlTemplate: `<p>${LONG}</p>` })
      .where(eq(campaignSteps.id, steps[1]));
    await getDb().update(campaignSteps).set({ bodyTemplate: LONG }).where(eq(campaignSteps.id, steps[2]));
    const r = await check(ws, c.id);
    expect(r.ready).toBe(true);
    expect(r.warnings.map((w) => w.code).filter((code) => DELIVERABILITY.includes(code))).toEqual([]);
  });

  it("tracking: a campaign's own verified domain is enough, a pending one is named, no tracking means no warning", async () => {
    const other = await makeWorkspace();
    const { c } = await riskyCampaign(other);
    const pending = { id: `tdm_${tag()}`, workspaceId: other.workspaceId, domain: `t.${tag()}.test`, cnameTarget: "x.test" };
    const verified = {
      id: `tdm_${tag()}`,
      workspaceId: other.workspaceId,
      domain: `v.${tag()}.test`,
      cnameTarget: "x.test",
      status: "VERIFIED" as const,
    };
    await getDb().insert(trackingDomains).values([pending, verified]);
    await getDb().update(campaigns).set({ trackingDomainId: pending.id, trackClicks: false }).where(eq(campaigns.id, c.id));
    const named = of((await check(other, c.id)).warnings, "TRACKING_SHARED_DOMAIN");
    expect(named[0].message).toContain(`tracks opens, but its tracking domain ${pending.domain} is not verified (PENDING)`);
    await getDb().update(campaigns).set({ trackingDomainId: verified.id }).where(eq(campaigns.id, c.id));
    expect(of((await check(other, c.id)).warnings, "TRACKING_SHARED_DOMAIN")).toEqual([]);
    await getDb().update(campaigns).set({ trackingDomainId: null, trackOpens: false }).where(eq(campaigns.id, c.id));
    const untracked = (await check(other, c.id)).warnings;
    expect(of(untracked, "TRACKING_SHARED_DOMAIN")).toEqual([]);
    expect(of(untracked, "TRACKED_SHORT_HTML")).toEqual([]); // no pixel, nothing for it to dominate
  });

  it("counts the visible text of an HTML body, not its markup", () => {
    expect(visibleText('<html><head><style>p{color:red}</style></head><body><p>Hi&nbsp;<b>there</b></p><img src="x"></body></html>')).toBe(
      "Hi there",
    );
    expect(TRACKED_HTML_MIN_TEXT).toBe(500);
  });
});
