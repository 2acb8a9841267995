import { beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, leads, placementResults, placementTests } from "@/db/schema";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { createCampaignWithSteps } from "@/test/campaign-setup";
import { PUT as PUT_POOL, GET as GET_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { GET as LAUNCH_CHECK } from "@/app/api/v1/campaigns/[id]/launch-check/route";
import { finishTest } from "@/lib/placement/finish";
import { rematchForPlacement } from "./assign-mailbox";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

/** A placement test of `mailboxId` (COMPLETED unless said) with one result per [provider, placement]. */
async function placement(
  mailboxId: string,
  results: [string, "INBOX" | "SPAM" | "MISSING"][],
  status: "COMPLETED" | "RUNNING" = "COMPLETED",
) {
  const id = newId("plt");
  await getDb()
    .insert(placementTests)
    .values({
      id,
      workspaceId: ws.workspaceId,
      batchId: newId("plb"),
      mailboxId,
      status,
      subject: "s",
      bodyText: "b",
      deadlineAt: new Date(),
    });
  await getDb()
    .insert(placementResults)
    .values(
      results.map(([provider, p], i) => ({
        id: newId("plr"),
        testId: id,
        seedEmail: `seed${i}@seeds.test`,
        provider,
        messageId: `<${newId("plr")}@x.test>`,
        placement: p,
      })),
    );
  return id;
}

async function googleLeads(n: number, tag: string): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId("lead"),
    workspaceId: ws.workspaceId,
    email: `${tag}${i}@gmail-co.test`,
    espClass: "GOOGLE" as const,
  }));
  await getDb().insert(leads).values(rows);
  return rows.map((r) => r.id);
}

const mailboxOf = async (campaignId: string, leadIds: string[]) =>
  (await getDb().select().from(campaignLeads).where(inArray(campaignLeads.leadId, leadIds)))
    .filter((r) => r.campaignId === campaignId)
    .map((r) => r.mailboxId);

describe("placement feeds sending (PREFER campaigns)", () => {
  it("a mailbox whose latest placement test lands in spam for Gmail gets no Gmail leads, its unsent ones move, the pool view and launch check say so; a clean test lifts it", async () => {
    const g1 = await insertMailbox(ws.workspaceId, "g1@acme-g.test", { espClass: "GOOGLE" });
    const g2 = await insertMailbox(ws.workspaceId, "g2@acme-g.test", { espClass: "GOOGLE" });
    const { campaign } = await createCampaignWithSteps(ws.fullKey, { name: "Placement", espMatching: "PREFER" }, [
      { stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" },
    ]);
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: campaign.id }, body: { mailboxIds: [g1.id, g2.id] } });
    // Before any test: balanced over both.
    const early = await googleLeads(4, "early");
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaign.id }, body: { leadIds: early } });
    expect((await mailboxOf(campaign.id, early)).filter((m) => m === g1.id)).toHaveLength(2);

    // g1's latest test: Gmail seeds in spam (an older clean one does not count), Outlook in the inbox.
    await placement(g1.id, [
      ["GOOGLE", "INBOX"],
      ["GOOGLE", "INBOX"],
    ]);
    await placement(g1.id, [
      ["GOOGLE", "SPAM"],
      ["GOOGLE", "SPAM"],
      ["GOOGLE", "INBOX"],
      ["MICROSOFT", "INBOX"],
    ]);
    expect(await rematchForPlacement(getDb(), g1.id)).toEqual({ moved: 2, unassigned: 0 });
    expect(await mailboxOf(campaign.id, early)).toEqual([g2.id, g2.id, g2.id, g2.id]);
    const later = await googleLeads(3, "later");
    const added = await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaign.id }, body: { leadIds: later } });
    expect(added.body.results.map((r: { mailboxId: string }) => r.mailboxId)).toEqual([g2.id, g2.id, g2.id]);

    const pool = await call(GET_POOL, "GET", "", { key: ws.readKey, params: { id: campaign.id } });
    expect(Object.fromEntries(pool.body.mailboxes.map((m: { email: string; spamFor: string[] }) => [m.email, m.spamFor]))).toEqual({
      "g1@acme-g.test": ["GOOGLE"],
      "g2@acme-g.test": [],
    });
    const check = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, params: { id: campaign.id } });
    expect(check.body.warnings).toContainEqual({ code: "PLACEMENT_SPAM", message: expect.stringContaining("g1@acme-g.test (GOOGLE)") });

    // A later clean test: g1 takes Gmail leads again (it has the lighter load).
    await placement(g1.id, [
      ["GOOGLE", "INBOX"],
      ["GOOGLE", "INBOX"],
    ]);
    const after = await googleLeads(1, "after");
    const again = await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaign.id }, body: { leadIds: after } });
    expect(again.body.results[0].mailboxId).toBe(g1.id);
    // Nothing in spam any more: nothing moves.
    expect(await rematchForPlacement(getDb(), g1.id)).toEqual({ moved: 0, unassigned: 0 });
    const [row] = await getDb().select().from(campaignLeads).where(eq(campaignLeads.leadId, after[0]));
    expect(row.mailboxId).toBe(g1.id);
  });

  it("a placement test that completes in spam moves the mailbox's unsent PREFER leads of that class at once", async () => {
    const a = await insertMailbox(ws.workspaceId, "a@acme-m.test", { espClass: "MICROSOFT" });
    const b = await insertMailbox(ws.workspaceId, "b@acme-m.test", { espClass: "MICROSOFT" });
    const { campaign } = await createCampaignWithSteps(ws.fullKey, { name: "Finish", espMatching: "PREFER" }, [
      { stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" },
    ]);
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: campaign.id }, body: { mailboxIds: [a.id, b.id] } });
    const rows = Array.from({ length: 4 }, (_, i) => ({
      id: newId("lead"),
      workspaceId: ws.workspaceId,
      email: `o${i}@outlook-co.test`,
      espClass: "MICROSOFT" as const,
    }));
    await getDb().insert(leads).values(rows);
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaign.id }, body: { leadIds: rows.map((r) => r.id) } });
    const test = await placement(
      a.id,
      [
        ["MICROSOFT", "SPAM"],
        ["MICROSOFT", "MISSING"],
      ],
      "RUNNING",
    );
    expect(await finishTest(getDb(), test, "COMPLETED", new Date())).toBe(true);
    expect(
      await mailboxOf(
        campaign.id,
        rows.map((r) => r.id),
      ),
    ).toEqual([b.id, b.id, b.id, b.id]);
  });

  it("a seed in a campaign pool gets no leads and the launch check names it among the mailboxes that cannot send", async () => {
    const seed = await insertMailbox(ws.workspaceId, "seed@acme-s.test", { espClass: "GOOGLE", isSeed: true });
    const sender = await insertMailbox(ws.workspaceId, "sender@acme-s.test", { espClass: "GOOGLE" });
    const { campaign } = await createCampaignWithSteps(ws.fullKey, { name: "Seeds" }, [
      { stepOrder: 0, subject: "Hi", bodyTemplate: "Hello" },
    ]);
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: campaign.id }, body: { mailboxIds: [seed.id, sender.id] } });
    const ids = await googleLeads(4, "seedpool");
    const added = await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaign.id }, body: { leadIds: ids } });
    expect(added.body.results.map((r: { mailboxId: string }) => r.mailboxId)).toEqual([sender.id, sender.id, sender.id, sender.id]);
    const check = await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, params: { id: campaign.id } });
    expect(check.body.warnings).toContainEqual({ code: "MAILBOXES_CANNOT_SEND", message: expect.stringContaining("seed@acme-s.test") });
  });
});
