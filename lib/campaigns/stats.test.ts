import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { campaignLeads, campaignSteps, mailboxes, replies } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { call, makeWorkspace } from "@/test/helpers";
import { insertEmail, insertMailbox } from "@/test/factories";
import { eq } from "drizzle-orm";
import { createCampaignWithSteps, prepareCampaign } from "@/test/campaign-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as STATS } from "@/app/api/v1/campaigns/[id]/stats/route";
import { GET as TIMESERIES } from "@/app/api/v1/campaigns/[id]/timeseries/route";
import { GET as DELETE_PREVIEW } from "@/app/api/v1/campaigns/[id]/delete-preview/route";
import { GET as ACTIVITY } from "@/app/api/v1/campaigns/[id]/activity/route";
import { GET as LAUNCH_CHECK } from "@/app/api/v1/campaigns/[id]/launch-check/route";
import { GET as LIST } from "@/app/api/v1/campaigns/route";

const day = (d: string, h = 10) => new Date(`${d}T${String(h).padStart(2, "0")}:00:00Z`);

/**
 * A campaign with variants A and B of its first step and one follow-up: four leads emailed on Nov 3
 * (l1, l2 variant A, l3, l4 variant B), l1 and l2 followed up on Nov 4; l1 answers the follow-up twice,
 * l3 answers variant B, l4 sends only an automatic reply.
 */
async function seedCountedCampaign() {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, "sam@stats.test");
  const { campaign: c } = await createCampaignWithSteps(ws.fullKey, { name: "Counted" }, [
    { stepOrder: 0, variantGroup: "A", subject: "A", bodyTemplate: "a" },
    { stepOrder: 0, variantGroup: "B", subject: "B", bodyTemplate: "b" },
    { stepOrder: 1, bodyTemplate: "f", delayHoursAfterPrevious: 24 },
  ]);
  const steps = await getDb().select().from(campaignSteps).where(eq(campaignSteps.campaignId, c.id));
  const stepOf = (order: number, group = "") => steps.find((s) => s.stepOrder === order && (s.variantGroup ?? "") === group)!;
  const emailsList = ["l1", "l2", "l3", "l4"].map((n) => `${n}@lead.test`);
  const leadIds: string[] = (
    await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: emailsList.map((email) => ({ email })) } })
  ).body.leadIds;
  // Four leads emailed on Nov 3 (l1, l2 variant A, l3, l4 variant B); l1 and l2 got the follow-up on Nov 4.
  const sent: Record<string, string> = {};
  const send = async (i: number, step: (typeof steps)[number], at: Date) => {
    return insertEmail(ws.workspaceId, mbx.id, {
      leadId: leadIds[i],
      leadEmail: emailsList[i],
      campaignId: c.id,
      stepId: step.id,
      stepOrder: step.stepOrder,
      variantGroup: step.variantGroup || null,
      createdAt: at,
      sentAt: at,
    });
  };
  for (let i = 0; i < 4; i++) sent[`${i}:0`] = await send(i, stepOf(0, i < 2 ? "A" : "B"), day("2026-11-03"));
  for (let i = 0; i < 2; i++) sent[`${i}:1`] = await send(i, stepOf(1), day("2026-11-04"));
  const reply = (i: number, emailId: string, at: Date, intent: "INTERESTED" | "QUESTION" | "OUT_OF_OFFICE", auto = false) =>
    getDb()
      .insert(replies)
      .values({
        id: newId("rep"),
        workspaceId: ws.workspaceId,
        mailboxId: mbx.id,
        leadId: leadIds[i],
        campaignId: c.id,
        emailId,
        messageId: `<${randomUUID()}@lead.test>`,
        receivedAt: at,
        intent,
        isAutoReply: auto,
      });
  await reply(0, sent["0:1"], day("2026-11-04", 15), "QUESTION"); // l1 answers the follow-up…
  await reply(0, sent["0:1"], day("2026-11-05"), "INTERESTED"); // …and again: still one lead
  await reply(2, sent["2:0"], day("2026-11-05"), "INTERESTED"); // l3 answers variant B
  await reply(3, sent["3:0"], day("2026-11-04", 11), "OUT_OF_OFFICE", true); // l4: only an automatic reply
  return { ws, c };
}

describe("campaign stats count replies once per lead", () => {
  it("replies and positives count leads once over leadsContacted, automatic replies not at all; per variant and per day too", async () => {
    const { ws, c } = await seedCountedCampaign();

    useClock(new ManualClock(day("2026-11-05", 18)));
    try {
      const stats = (await call(STATS, "GET", "", { key: ws.readKey, params: { id: c.id } })).body;
      expect(stats).toMatchObject({
        sentCount: 6,
        leadsContacted: 4,
        repliedCount: 2,
        repliedRate: 0.5,
        positiveCount: 2,
        positiveRate: 0.5,
      });
      const v = Object.fromEntries(
        stats.variants.map((x: any) => [`${x.stepOrder}${x.variantGroup ?? ""}`, [x.sent, x.replied, x.repliedRate]]),
      );
      expect(v).toEqual({ "0A": [2, 0, 0], "0B": [2, 1, 0.5], "1": [2, 1, 0.5] });
      const listed = (await call(LIST, "GET", "/campaigns", { key: ws.readKey })).body as any[];
      expect(listed.find((x) => x.id === c.id)).toMatchObject({ repliedCount: 2, repliedRate: 0.5, positiveCount: 2 });
      const ts = (await call(TIMESERIES, "GET", "/campaigns/x/timeseries?days=3", { key: ws.readKey, params: { id: c.id } })).body;
      expect(ts.series.map((d: any) => [d.date, d.sent, d.replied])).toEqual([
        ["2026-11-03", 4, 0],
        ["2026-11-04", 2, 1],
        ["2026-11-05", 0, 2],
      ]);
      expect((await call(DELETE_PREVIEW, "GET", "", { key: ws.fullKey, params: { id: c.id } })).body).toMatchObject({
        sends: 6,
        replies: 4,
      });
      // The activity log's total counts every page, also past the end.
      const past = await call(ACTIVITY, "GET", "/campaigns/x/activity?page=9&limit=2", { key: ws.readKey, params: { id: c.id } });
      expect(past.status).toBe(200);
      expect(JSON.stringify(past.body)).toContain('"total":6');
    } finally {
      useClock(systemClock);
    }
  });

  it("LEADS_WITHOUT_MAILBOX also counts leads on a pool mailbox that cannot send", async () => {
    const ws = await makeWorkspace();
    const good = await insertMailbox(ws.workspaceId, "good@lw.test");
    const paused = await insertMailbox(ws.workspaceId, "paused@lw.test");
    const { campaign: c } = await prepareCampaign(ws.fullKey, {
      campaign: { name: "Stuck", defaultTimezone: "UTC" },
      steps: [{ stepOrder: 0, subject: "s", bodyTemplate: "b" }],
      mailboxIds: [good.id, paused.id],
      leads: [{ email: "a@lw-lead.test" }, { email: "b@lw-lead.test" }],
    });
    const check = async () =>
      (await call(LAUNCH_CHECK, "GET", "", { key: ws.readKey, params: { id: c.id } })).body.warnings as { code: string; message: string }[];
    expect((await check()).map((w) => w.code)).not.toContain("LEADS_WITHOUT_MAILBOX");
    // The one on `paused` cannot send once that mailbox is paused by the user.
    const onPaused = (await getDb().select().from(campaignLeads).where(eq(campaignLeads.mailboxId, paused.id))).length;
    expect(onPaused).toBe(1);
    await getDb().update(mailboxes).set({ sendingEnabled: false }).where(eq(mailboxes.id, paused.id));
    const w = (await check()).find((x) => x.code === "LEADS_WITHOUT_MAILBOX");
    expect(w?.message).toContain("1 lead is on a mailbox that cannot send");
  });
});
