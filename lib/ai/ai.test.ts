import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import { emails, replies } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { ingestMessage } from "@/lib/inbox/ingest";
import { newId } from "@/lib/ids";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startHttpPeer } from "@/test/peers/http";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as AI_GET, PATCH as AI_PATCH } from "@/app/api/v1/ai-settings/route";
import { POST as DRAFT } from "@/app/api/v1/replies/[id]/draft/route";
import { GET as PIPELINE } from "@/app/api/v1/crm/pipeline/route";
import { GET as CRM_REPLIES } from "@/app/api/v1/crm/replies/route";

let ai: Awaited<ReturnType<typeof startHttpPeer>>;
let ws: TestWorkspace;
let answer = "WRONG_PERSON";
let status = 200;

beforeAll(async () => {
  ai = await startHttpPeer();
  ai.setResponder(() => ({
    status,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ choices: [{ message: { content: answer } }] }),
  }));
  process.env.AI_BASE_URL = ai.url("/v1");
  process.env.AI_MODEL = "test-model";
  ws = await makeWorkspace();
});
afterAll(async () => {
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  useClock(systemClock);
  await ai.close();
});

async function ingest(mbx: { id: string; workspaceId: string; email: string }, from: string, text: string, id: string) {
  const parsed = await simpleParser(
    `From: ${from}\r\nTo: ${mbx.email}\r\nSubject: Re: Hello\r\nMessage-ID: <${id}@x.test>\r\n\r\n${text}\r\n`,
  );
  return ingestMessage(getDb(), systemClock, mbx, parsed, { folder: "INBOX" });
}

describe("AI classification, drafts and credits", () => {
  it("classifies a person's reply with the configured model, falls back to the rules, never overrides an unsubscribe", async () => {
    const mbx = await insertMailbox(ws.workspaceId, "ai@mbx.test");
    await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lee@lead.test", firstName: "Lee" }] } });
    expect((await ingest(mbx, "lee@lead.test", "Bob handles this now.", "a1"))!.intent).toBe("WRONG_PERSON");
    const asked = ai.received.at(-1)!;
    expect(asked.url).toBe("/v1/chat/completions");
    expect(JSON.parse(asked.body)).toMatchObject({
      model: "test-model",
      messages: [{ role: "system" }, { role: "user", content: "Bob handles this now." }],
    });
    answer = "INTERESTED";
    expect((await ingest(mbx, "lee@lead.test", "Please remove me from your list", "a2"))!.intent).toBe("UNSUBSCRIBE_REQUEST");
    status = 500;
    // The model is down: the rules decide.
    expect((await ingest(mbx, "lee@lead.test", "Not interested, thanks", "a3"))!.intent).toBe("NOT_INTERESTED");
    status = 200;
    await call(AI_PATCH, "PATCH", "", { key: ws.fullKey, body: { aiClassificationEnabled: false } });
    const n = ai.received.length;
    expect((await ingest(mbx, "lee@lead.test", "What's the price?", "a4"))!.intent).toBe("QUESTION");
    expect(ai.received.length).toBe(n); // turned off: the model is not asked
  });

  it("drafts an answer for one credit, never sends, and answers 429 AI_CREDITS when the month's credits are used", async () => {
    useClock(new ManualClock(new Date("2026-11-30T23:00:00Z")));
    const s = await call(AI_PATCH, "PATCH", "", { key: ws.fullKey, body: { monthlyCredits: 2, customInstructions: "Sign as Sam." } });
    expect(s.body).toMatchObject({
      monthlyCredits: 2,
      provider: "openai-compatible",
      model: "test-model",
      credits: { limit: 2, used: 0, remaining: 2, resetsAt: "2026-12-01T00:00:00.000Z" },
    });
    const [reply] = await getDb().select().from(replies).limit(1);
    answer = "Hi Lee,\n\nThanks — who should I talk to instead?\n\nSam";
    const d1 = await call(DRAFT, "POST", "", { key: ws.fullKey, params: { id: reply.id } });
    expect(d1.body).toMatchObject({ draft: { body: answer }, provider: "openai-compatible", creditsRemaining: 1 });
    expect(JSON.parse(ai.received.at(-1)!.body).messages[0].content).toContain("Sign as Sam.");
    expect((await call(DRAFT, "POST", "", { key: ws.fullKey, params: { id: reply.id } })).body.creditsRemaining).toBe(0);
    const out = await call(DRAFT, "POST", "", { key: ws.fullKey, params: { id: reply.id } });
    expect(out.status).toBe(429);
    expect(out.body).toMatchObject({ code: "RATE_LIMITED", details: { reason: "AI_CREDITS" } });
    expect(out.headers.get("Retry-After")).toBe("3600");
    expect((await call(AI_GET, "GET", "", { key: ws.readKey })).body.credits).toMatchObject({ used: 2, remaining: 0 });
    expect((await getDb().select().from(emails)).length).toBe(0); // a draft never sends
    useClock(systemClock);
  });
});

describe("the CRM view", () => {
  it("lists every lead that replied by the step they last replied to, and replies by intent", async () => {
    const own = await makeWorkspace();
    const mbx = await insertMailbox(own.workspaceId, "crm@mbx.test");
    const ids = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: own.fullKey,
        body: { leads: [{ email: "s0@lead.test" }, { email: "s1@lead.test" }] },
      })
    ).body.leadIds;
    const e = (lead: string, email: string, step: number) => ({
      id: newId("eml"),
      workspaceId: own.workspaceId,
      mailboxId: mbx.id,
      leadId: lead,
      leadEmail: email,
      campaignId: "cmp_x",
      stepOrder: step,
      messageId: `<${lead}-${step}@m>`,
      subject: "S",
      status: "SENT" as const,
    });
    await getDb()
      .insert(emails)
      .values([e(ids[0], "s0@lead.test", 0), e(ids[1], "s1@lead.test", 0), e(ids[1], "s1@lead.test", 1)]);
    const wrap = (to: string, refs: string, text: string, id: string) =>
      simpleParser(`From: ${to}\r\nTo: crm@mbx.test\r\nSubject: Re: S\r\nMessage-ID: <${id}@x>\r\nIn-Reply-To: ${refs}\r\n\r\n${text}\r\n`);
    await call(AI_PATCH, "PATCH", "", { key: own.fullKey, body: { aiClassificationEnabled: false } });
    await ingestMessage(getDb(), systemClock, mbx, await wrap("s1@lead.test", `<${ids[1]}-1@m>`, "Let's book a call", "c1"), {
      folder: "INBOX",
    });
    await ingestMessage(getDb(), systemClock, mbx, await wrap("s0@lead.test", `<${ids[0]}-0@m>`, "Not interested", "c2"), {
      folder: "INBOX",
    });
    const p = await call(PIPELINE, "GET", "/crm/pipeline", { key: own.readKey });
    expect([p.headers.get("X-Total-Count"), p.headers.get("X-Limit")]).toEqual(["2", "200"]);
    expect(p.body.map((r: any) => [r.lead.email, r.stage, r.intent, r.replyCount])).toEqual([
      ["s0@lead.test", { stepOrder: 0, name: "Step 1" }, "NOT_INTERESTED", 1],
      ["s1@lead.test", { stepOrder: 1, name: "Step 2" }, "INTERESTED", 1],
    ]);
    const interested = await call(CRM_REPLIES, "GET", "/crm/replies?intent=INTERESTED", { key: own.readKey });
    expect(interested.body.replies.map((r: any) => r.leadId)).toEqual([ids[1]]);
    expect((await call(CRM_REPLIES, "GET", "/crm/replies?intent=HAPPY", { key: own.readKey })).status).toBe(400);
  });
});
