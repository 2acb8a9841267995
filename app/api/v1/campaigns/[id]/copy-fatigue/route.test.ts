import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaigns, leads } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { scanDueCampaigns } from "@/lib/copy-fatigue/job";
import { fatigueListSchema, fatigueRewriteSchema, fatigueStepSchema } from "@/lib/copy-fatigue/schemas";
import { newId } from "@/lib/ids";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { createCampaignWithSteps } from "@/test/campaign-setup";
import { GET as STEPS } from "../steps/route";
import { PATCH as PATCH_STEP } from "../steps/[stepId]/route";
import { GET } from "./route";
import { POST as SCAN } from "./scan/route";
import { POST as DISMISS } from "./[stepId]/dismiss/route";
import { POST as APPLY } from "./[stepId]/apply/route";
import { GET as AI_SETTINGS, PATCH as PATCH_AI } from "../../../ai-settings/route";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";

const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
let ws: TestWorkspace;
let other: TestWorkspace;
let campaignId: string;
let mailboxId: string;
let leadId: string;
const step: Record<string, string> = {};

/**
 * `n` sends of a step (SENT, a minute apart from `start`, to lead{offset+i}), and a person's reply to
 * each send whose 1-based position `replied` picks.
 */
async function seedSends(stepId: string, n: number, replied: (i: number) => boolean, start = "2026-10-01T00:00:00Z", offset = 0) {
  const db = getDb();
  const picks = Array.from({ length: n }, (_, k) => k + 1).filter(replied);
  await db.execute(sql`
    insert into emails (id, workspace_id, mailbox_id, lead_email, campaign_id, step_id, message_id, subject, status, sent_at)
    select ${stepId} || '-' || (g + ${offset}), ${ws.workspaceId}, ${mailboxId}, 'lead' || (g + ${offset}) || '@x.test', ${campaignId},
      ${stepId}, '<' || ${stepId} || (g + ${offset}) || '@m>', 's', 'SENT', ${start}::timestamptz + (g + ${offset}) * interval '1 minute'
    from generate_series(1, ${n}) g`);
  if (picks.length)
    await db.execute(sql`
      insert into replies (id, workspace_id, mailbox_id, lead_id, campaign_id, email_id, message_id, received_at)
      select 'rep-' || ${stepId} || '-' || (g + ${offset}), ${ws.workspaceId}, ${mailboxId}, ${leadId}, ${campaignId},
        ${stepId} || '-' || (g + ${offset}), '<r' || ${stepId} || (g + ${offset}) || '@l>', now()
      from unnest(${`{${picks.join(",")}}`}::int[]) g`);
}

const p = (params: Record<string, string>, key = ws.fullKey) => ({ key, params });
const rowOf = (body: { steps: { stepId: string }[] }, id: string) => body.steps.find((s) => s.stepId === id) as any;

beforeAll(async () => {
  useClock(clock);
  ws = await makeWorkspace();
  other = await makeWorkspace();
  mailboxId = (await insertMailbox(ws.workspaceId, "sam@fatigue.test")).id;
  leadId = newId("lead");
  await getDb().insert(leads).values({ id: leadId, workspaceId: ws.workspaceId, email: "someone@x.test" });
  const { campaign, stepsResponse } = await createCampaignWithSteps(ws.fullKey, { name: "Fatigue" }, [
    {
      stepOrder: 0,
      variantGroup: "A",
      subject: "Quick idea for {{companyName}} and your team this quarter",
      bodyTemplate: "Hi {{firstName}},\n\nWe help.\n\nCall?\n\nBest,\nSam",
    },
    { stepOrder: 0, variantGroup: "B", subject: "Another", bodyTemplate: "Hello {{firstName}}, variant B." },
    { stepOrder: 1, bodyTemplate: "Following up." },
  ]);
  expect(stepsResponse.status).toBe(200);
  campaignId = campaign.id;
  for (const s of stepsResponse.body.steps) step[s.variantGroup ? `0${s.variantGroup}` : String(s.stepOrder)] = s.id;
  // A: 20 replies in the first 200 sends, 9 in the latest 200 (below half). B: 20 then exactly 10. Follow-up: 199 sends.
  await seedSends(step["0A"], 400, (i) => (i <= 200 ? i % 10 === 0 : i % 20 === 0 && i <= 380));
  await seedSends(step["0B"], 400, (i) => (i <= 200 ? i % 10 === 0 : i % 20 === 0));
  await seedSends(step["1"], 199, (i) => i <= 20);
});
afterAll(() => useClock(systemClock));

describe("copy fatigue through the API", () => {
  it("lists every step and variant with its verdict, the first GET scanning them", async () => {
    const res = await call(GET, "GET", "", p({ id: campaignId }, ws.readKey));
    expect(res.status).toBe(200);
    fatigueListSchema.parse(res.body);
    expect(res.body.lastScanAt).toBe(clock.now().toISOString());
    expect(rowOf(res.body, step["0A"])).toMatchObject({
      stepOrder: 0,
      variantGroup: "A",
      status: "FATIGUED",
      sends: 400,
      firstRate: 0.1,
      recentRate: 0.045,
      reasons: ["RATE_DROP"],
    });
    expect(rowOf(res.body, step["0A"]).reason).toContain("10.0%");
    expect(rowOf(res.body, step["0A"]).suggestion).toMatch(/Apply/);
    expect(rowOf(res.body, step["0B"])).toMatchObject({ status: "OK", firstRate: 0.1, recentRate: 0.05, reason: null, suggestion: null });
    expect(rowOf(res.body, step["1"])).toMatchObject({ variantGroup: null, status: "OK", sends: 199, firstRate: null, recentRate: null });
  });

  it("scan answers 202 with the same list; a read-only key may not scan", async () => {
    clock.advance(60_000);
    expect((await call(SCAN, "POST", "", p({ id: campaignId }, ws.readKey))).status).toBe(403);
    const res = await call(SCAN, "POST", "", p({ id: campaignId }));
    expect(res.status).toBe(202);
    expect(res.body.lastScanAt).toBe(clock.now().toISOString());
    expect(rowOf(res.body, step["0A"]).status).toBe("FATIGUED");
  });

  it("another workspace's campaign or step is 404, and so is a step of another campaign", async () => {
    expect((await call(GET, "GET", "", p({ id: campaignId }, other.readKey))).status).toBe(404);
    expect((await call(SCAN, "POST", "", p({ id: campaignId }, other.fullKey))).status).toBe(404);
    expect((await call(DISMISS, "POST", "", p({ id: campaignId, stepId: step["0A"] }, other.fullKey))).status).toBe(404);
    expect((await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0A"] }, other.fullKey))).status).toBe(404);
    const { campaign: mine } = await createCampaignWithSteps(other.fullKey, { name: "Theirs" }, [
      { stepOrder: 0, subject: "x", bodyTemplate: "y" },
    ]);
    const res = await call(DISMISS, "POST", "", p({ id: mine.id, stepId: step["0A"] }, other.fullKey));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
  });

  it("dismiss clears the flag until a new reason; an unflagged step is 409; read-only keys get 403", async () => {
    expect((await call(DISMISS, "POST", "", p({ id: campaignId, stepId: step["0A"] }, ws.readKey))).status).toBe(403);
    expect((await call(DISMISS, "POST", "", p({ id: campaignId, stepId: step["0B"] }))).status).toBe(409);
    const res = await call(DISMISS, "POST", "", p({ id: campaignId, stepId: step["0A"] }));
    expect(res.status).toBe(200);
    fatigueStepSchema.parse(res.body);
    expect(res.body).toMatchObject({ stepId: step["0A"], status: "DISMISSED", reasons: ["RATE_DROP"] });
    expect((await call(DISMISS, "POST", "", p({ id: campaignId, stepId: step["0A"] }))).body.status).toBe("DISMISSED");
    expect(rowOf((await call(SCAN, "POST", "", p({ id: campaignId }))).body, step["0A"]).status).toBe("DISMISSED");
    // The same body goes to 5,001 distinct leads: a new reason, flagged anew.
    await seedSends(step["0A"], 4601, () => false, "2026-10-05T00:00:00Z", 400);
    const after = rowOf((await call(SCAN, "POST", "", p({ id: campaignId }))).body, step["0A"]);
    expect(after).toMatchObject({ status: "FATIGUED", leads: 5001, reasons: ["RATE_DROP", "BODY_OVERUSED"] });
  });

  it("apply returns the fallback rewrite without an AI endpoint, clears the flag, and leaves the step as it was", async () => {
    const before = (await call(STEPS, "GET", "", p({ id: campaignId }))).body.steps.find((s: any) => s.id === step["0A"]);
    expect((await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0A"] }, ws.readKey))).status).toBe(403);
    const res = await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0A"] }));
    expect(res.status).toBe(200);
    fatigueRewriteSchema.parse(res.body);
    expect(res.body).toEqual({
      stepId: step["0A"],
      subject: "Quick idea for {{companyName}} and",
      bodyTemplate: "Hi {{firstName}},\n\nCall?\n\nWe help.\n\nBest,\nSam",
      provider: "fallback",
      generatedBy: "template",
    });
    const afterSteps = (await call(STEPS, "GET", "", p({ id: campaignId }))).body.steps.find((s: any) => s.id === step["0A"]);
    expect(afterSteps).toEqual(before);
    expect(rowOf((await call(GET, "GET", "", p({ id: campaignId }))).body, step["0A"]).status).toBe("DISMISSED");
  });

  it("a changed body starts afresh: its sends count from the edit", async () => {
    clock.advance(60_000);
    const patched = await call(PATCH_STEP, "PATCH", "", {
      key: ws.fullKey,
      params: { id: campaignId, stepId: step["0A"] },
      body: { bodyTemplate: "Hi {{firstName}}, new words." },
    });
    expect(patched.status).toBe(200);
    const row = rowOf((await call(GET, "GET", "", p({ id: campaignId }))).body, step["0A"]);
    expect(row).toMatchObject({ status: "OK", sends: 0, leads: 0, reasons: [] });
  });
});

describe("the hourly scan job", () => {
  it("scans ACTIVE and PAUSED campaigns once an hour, not DRAFT ones", async () => {
    const ctx = systemCtx(undefined, { clock });
    clock.advance(2 * 3600_000);
    // The DRAFT campaign is not scanned; an ACTIVE one is, then not again within the hour.
    const first = await scanDueCampaigns(ctx);
    expect(first.scanned).toBe(0);
    await getDb().update(campaigns).set({ status: "ACTIVE" }).where(eq(campaigns.id, campaignId));
    expect(await scanDueCampaigns(ctx)).toEqual({ scanned: 1, failed: 0 });
    expect((await call(GET, "GET", "", p({ id: campaignId }))).body.lastScanAt).toBe(clock.now().toISOString());
    clock.advance(59 * 60_000);
    expect((await scanDueCampaigns(ctx)).scanned).toBe(0);
    clock.advance(60_000);
    expect((await scanDueCampaigns(ctx)).scanned).toBe(1);
  });
});

describe("apply with an OpenAI-compatible endpoint", () => {
  it("returns the model's rewrite for one credit; a bad or failing answer falls back; no credits is 429", async () => {
    const peer = await startOpenAiPeer();
    try {
      peer.useAsProvider({ embeddings: false });
      const rewrite = { subject: "A fresh angle", body: "Hello {{firstName}}, variant B said differently." };
      peer.onChat(() => JSON.stringify(rewrite));
      const used = async () => (await call(AI_SETTINGS, "GET", "", { key: ws.readKey })).body.credits.used;
      const before = await used();
      const res = await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0B"] }));
      expect(res.body).toEqual({
        stepId: step["0B"],
        subject: "A fresh angle",
        bodyTemplate: rewrite.body,
        provider: "ai",
        generatedBy: "ai",
      });
      expect(await used()).toBe(before + 1);
      expect(peer.chats()[0].body.messages?.[1].content).toContain("Hello {{firstName}}, variant B.");
      // A rewrite that drops a variable, or an endpoint error: the fallback.
      peer.onChat(() => JSON.stringify({ subject: "x", body: "Hello there" }));
      expect((await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0B"] }))).body.provider).toBe("fallback");
      peer.onChat(() => ({ status: 503, error: "overloaded" }));
      expect((await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0B"] }))).body.provider).toBe("fallback");
      await call(PATCH_AI, "PATCH", "", { key: ws.fullKey, body: { monthlyCredits: 0 } });
      const out = await call(APPLY, "POST", "", p({ id: campaignId, stepId: step["0B"] }));
      expect(out.status).toBe(429);
      expect(out.body.details.reason).toBe("AI_CREDITS");
    } finally {
      clearAiEnv();
      await peer.close();
    }
  });
});
