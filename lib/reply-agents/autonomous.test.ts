import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { agentReplies, emails, mailboxes, replies, sentReplies } from "@/db/schema";
import { createAgent } from "@/lib/reply-agents/crud";
import { addKnowledge } from "@/lib/reply-agents/knowledge";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { syncMailbox } from "@/lib/inbox/sync";
import { sendDue } from "@/lib/sending/engine";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { appendMessages } from "@/test/mail-messages";
import { connectMailboxes, prepareCampaign, activateCampaign } from "@/test/campaign-setup";
import { PATCH as AI_SETTINGS } from "@/app/api/v1/ai-settings/route";
import { POST as SEND } from "@/app/api/v1/replies/[id]/send/route";
import { GET as THREAD } from "@/app/api/v1/replies/thread/[leadId]/route";
import { clearAiEnv, startOpenAiPeer } from "@/test/peers/openai-peer";
import { GET as ACTIVITY } from "@/app/api/v1/reply-agents/[id]/activity/route";
import { POST as DRAFT } from "@/app/api/v1/replies/[id]/draft/route";
import { patchAgent } from "@/lib/reply-agents/crud";
import { runAgentReplies } from "./run";

const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));
const DOC =
  "Acme Outreach pricing and plans.\n\nThe Team plan costs 49 euros per seat per month, billed annually, and includes unlimited mailboxes. " +
  "Every plan comes with a 14-day free trial.\n\nSecurity. Acme stores all data in Frankfurt and is ISO 27001 certified.";
const LEADS = [
  "asker@a.test",
  "away@b.test",
  "keen@c.test",
  "nope@d.test",
  "stop@e.test",
  "broke@f.test",
  "ai1@g.test",
  "ai2@h.test",
  "ai3@i.test",
];

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
let mailbox: typeof mailboxes.$inferSelect;
let leadIds: string[];
let sentTo: Record<string, string> = {};
let agentId: string;

const ctx = () => systemCtx(undefined, { db: getDb(), clock });
const run = () => runAgentReplies(ctx());
const sync = () => syncMailbox(ctx(), mailbox);
const toLead = (addr: string) => world.smtp.received.filter((m) => m.to.includes(addr));

function message(o: { id: string; from: string; body: string; subject?: string; headers?: string[]; date?: string }) {
  const inReplyTo = sentTo[o.from];
  return [
    `From: ${o.from}`,
    "To: Ann <ann@agent.test>",
    `Subject: ${o.subject ?? "Re: Idea"}`,
    `Message-ID: <${o.id}@lead.test>`,
    `Date: ${o.date ?? clock.now().toUTCString()}`,
    `In-Reply-To: ${inReplyTo}`,
    `References: ${inReplyTo}`,
    ...(o.headers ?? []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body,
    "",
  ].join("\n");
}
const append = (...raws: string[]) => appendMessages(world.imap, { username: "ann@agent.test", password: "pw" }, raws);
const replyOf = async (id: string) =>
  (
    await getDb()
      .select()
      .from(replies)
      .where(eq(replies.messageId, `<${id}@lead.test>`))
  )[0];
const workOf = async (replyId: string) => getDb().select().from(agentReplies).where(eq(agentReplies.replyId, replyId));

beforeAll(async () => {
  useClock(clock);
  world = await startMailWorld({ domain: "agent.test", users: { "ann@agent.test": "pw" } });
  ws = await makeWorkspace();
  const [mbx] = await connectMailboxes(ws.fullKey, [{ email: "ann@agent.test", appPassword: "pw", senderName: "Ann Lee" }]);
  const prepared = await prepareCampaign(ws.fullKey, {
    campaign: { name: "Agent", minGapMinutes: 0, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
    steps: [{ stepOrder: 0, subject: "Idea", bodyTemplate: "Hi {{firstName}}, quick idea." }],
    mailboxIds: [mbx.id],
    leads: LEADS.map((email) => ({ email, firstName: email.split("@")[0] })),
  });
  leadIds = prepared.leadIds;
  await activateCampaign(ws.fullKey, prepared.campaign.id);
  for (let i = 0; i < 12; i++) {
    await sendDue(getDb(), clock);
    clock.advance(60_000);
  }
  const sent = await getDb().select().from(emails).where(eq(emails.campaignId, prepared.campaign.id));
  expect(sent).toHaveLength(LEADS.length);
  sentTo = Object.fromEntries(sent.map((e) => [e.leadEmail, e.messageId]));
  [mailbox] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, mbx.id));
  const wctx = systemCtx(ws.workspaceId, { db: getDb(), clock });
  const agent = await createAgent(wctx, {
    name: "Acme helper",
    companyName: "Acme",
    tone: "FRIENDLY",
    autonomousReplies: true,
    followUpsEnabled: true,
    followUpDays: 3,
    campaignIds: [prepared.campaign.id],
  });
  agentId = agent.id;
  await addKnowledge(
    getDb(),
    { workspaceId: ws.workspaceId, agentId, kind: "document", source: "pricing.txt", title: "pricing.txt", text: DOC },
    clock.now(),
  );
  world.smtp.received.length = 0;
}, 90_000);
afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await world.close();
});

describe("autonomous replies over IMAP and SMTP", () => {
  it("answers a lead's question with the trained passage, threaded, from the lead's mailbox; automatic and refusing replies get nothing", async () => {
    await append(
      message({
        id: "q1",
        from: "asker@a.test",
        body: "Thanks for reaching out. How much does the Team plan cost per seat?\n\nOn Tue, Ann wrote:\n> Hi",
      }),
      message({
        id: "ooo",
        from: "away@b.test",
        subject: "Automatic reply: Idea",
        headers: ["Auto-Submitted: auto-replied"],
        body: "I am out of the office until Monday. What does the Team plan cost? I will answer then.",
      }),
      message({ id: "no", from: "nope@d.test", body: "Not interested, thanks." }),
      message({ id: "unsub", from: "stop@e.test", body: "Please remove me from your list." }),
    );
    expect((await sync()).stored).toBe(4);
    const q1 = await replyOf("q1");
    expect(q1.intent).toBe("QUESTION");
    expect((await replyOf("ooo")).intent).toBe("OUT_OF_OFFICE");
    expect((await replyOf("no")).intent).toBe("NOT_INTERESTED");
    expect((await replyOf("unsub")).intent).toBe("UNSUBSCRIBE_REQUEST");
    // Only the question is queued for the agent.
    const queued = await getDb().select().from(agentReplies).where(eq(agentReplies.workspaceId, ws.workspaceId));
    expect(queued.map((q) => [q.replyId, q.kind, q.status])).toEqual([[q1.id, "ANSWER", "PENDING"]]);

    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 1, skipped: 0, failed: 0 });
    const [mail] = toLead("asker@a.test");
    expect(world.smtp.received).toHaveLength(1);
    expect(mail.from).toBe("ann@agent.test");
    expect(mail.parsed.inReplyTo).toBe("<q1@lead.test>");
    expect(mail.parsed.references).toContain("<q1@lead.test>");
    expect(mail.parsed.subject).toBe("Re: Idea");
    expect(mail.parsed.text).toContain("The Team plan costs 49 euros per seat per month");
    expect(mail.parsed.text).toMatch(/^Hi asker!/);
    expect(mail.parsed.text).toContain("Cheers,\nAnn Lee\nAcme");

    const [work] = await workOf(q1.id);
    expect(work).toMatchObject({ status: "SENT", provider: "fallback" });
    const [sent] = await getDb().select().from(sentReplies).where(eq(sentReplies.id, work.sentReplyId!));
    expect(sent).toMatchObject({ sentBy: "AGENT", status: "SENT", inReplyTo: "<q1@lead.test>" });
    expect(sent.sentAt!.getTime() - q1.createdAt.getTime()).toBeLessThan(60_000);
    const thread = await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: leadIds[0] } });
    expect(thread.body.messages.find((m: any) => m.direction === "outbound" && m.kind === "reply")).toMatchObject({
      sentBy: "AGENT",
      status: "SENT",
    });

    // Never twice: later runs and a second sync of the same message send nothing more.
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 0 });
    expect(world.smtp.received).toHaveLength(1);
  }, 60_000);

  it("sends one follow-up after followUpDays without an answer from the lead", async () => {
    const q1 = await replyOf("q1");
    const [, fu] = (await workOf(q1.id)).sort((a, b) => a.kind.localeCompare(b.kind));
    expect(fu).toMatchObject({ kind: "FOLLOW_UP", status: "PENDING" });
    clock.advance(2 * 86_400_000);
    expect(await run()).toMatchObject({ sent: 0 });
    clock.advance(86_400_000);
    expect(await run()).toMatchObject({ sent: 1 });
    const mails = toLead("asker@a.test");
    expect(mails).toHaveLength(2);
    expect(mails[1].parsed.inReplyTo).toBe("<q1@lead.test>");
    expect(mails[1].parsed.text).toContain("Just checking in on my last message");
    clock.advance(10 * 86_400_000);
    expect(await run()).toMatchObject({ sent: 0 });
    expect(toLead("asker@a.test")).toHaveLength(2);
  }, 30_000);

  it("leaves alone a message a person already answered", async () => {
    await append(message({ id: "k1", from: "keen@c.test", body: "What does the Team plan cost per seat?" }));
    await sync();
    const k1 = await replyOf("k1");
    const human = await call(SEND, "POST", "", { key: ws.fullKey, params: { id: k1.id }, body: { body: "I'll call you about it." } });
    expect(human.status).toBe(200);
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 0, skipped: 1 });
    expect((await workOf(k1.id))[0]).toMatchObject({ status: "SKIPPED", reason: "ANSWERED" });
    expect(toLead("keen@c.test")).toHaveLength(1); // the person's answer only
  }, 30_000);

  it("sends nothing without AI credits, and records why", async () => {
    expect((await call(AI_SETTINGS, "PATCH", "", { key: ws.fullKey, body: { monthlyCredits: 0 } })).status).toBe(200);
    await append(message({ id: "b1", from: "broke@f.test", body: "How much does the Team plan cost per seat?" }));
    await sync();
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 0, skipped: 1 });
    const b1 = await replyOf("b1");
    expect((await workOf(b1.id))[0]).toMatchObject({ status: "SKIPPED", reason: "NO_CREDITS" });
    expect(toLead("broke@f.test")).toHaveLength(0);
    const rows = await getDb()
      .select()
      .from(sentReplies)
      .where(and(eq(sentReplies.workspaceId, ws.workspaceId), eq(sentReplies.replyId, b1.id)));
    expect(rows).toHaveLength(0);
  }, 30_000);
});

describe("what the agent leaves to people", () => {
  it("a question its knowledge cannot answer is not answered; work interrupted mid-way is failed, never resent", async () => {
    clock.advance(60_000);
    await append(message({ id: "q2", from: "asker@a.test", body: "Do you integrate with SAP?" }));
    await sync();
    const q2 = await replyOf("q2");
    expect(q2.intent).toBe("QUESTION");
    const before = world.smtp.received.length;
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 0, skipped: 1 });
    expect((await workOf(q2.id))[0]).toMatchObject({ status: "SKIPPED", reason: "NO_PASSAGE" });
    // A run that claimed work and stopped: once its lease is over the work is FAILED, and nothing is sent.
    await getDb()
      .update(agentReplies)
      .set({ status: "WORKING", leaseUntil: new Date(clock.now().getTime() + 1000), reason: null })
      .where(eq(agentReplies.replyId, q2.id));
    expect(await run()).toMatchObject({ interrupted: 0, sent: 0 });
    clock.advance(2000);
    expect(await run()).toMatchObject({ interrupted: 1, sent: 0 });
    expect((await workOf(q2.id))[0]).toMatchObject({ status: "FAILED", reason: "INTERRUPTED" });
    expect(world.smtp.received.length).toBe(before);
  }, 30_000);
});

describe("autonomous replies with an OpenAI-compatible endpoint", () => {
  let peer: Awaited<ReturnType<typeof startOpenAiPeer>>;
  const ANSWER = "Hi! The Team plan is 49 euros per seat per month, billed annually. Ann";
  beforeAll(async () => {
    peer = await startOpenAiPeer();
    expect((await call(AI_SETTINGS, "PATCH", "", { key: ws.fullKey, body: { monthlyCredits: 1000 } })).status).toBe(200);
  });
  afterAll(async () => {
    clearAiEnv();
    await peer.close();
  });
  const isClassify = (r: { body: { messages?: { role: string; content: string }[] } }) =>
    !!r.body.messages?.[0]?.content.startsWith("Classify");

  it("sends the model's answer, asked with the top passages", async () => {
    peer.useAsProvider({ embeddings: false });
    peer.onChat((r) => (isClassify(r) ? "QUESTION" : ANSWER));
    await append(message({ id: "a1", from: "ai1@g.test", body: "How much does the Team plan cost per seat?" }));
    await sync();
    expect((await replyOf("a1")).intent).toBe("QUESTION");
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(toLead("ai1@g.test")[0].parsed.text?.trim()).toBe(ANSWER);
    expect((await workOf((await replyOf("a1")).id))[0]).toMatchObject({ status: "SENT", provider: "ai" });
    const asked = peer.chats().filter((r) => !isClassify(r));
    expect(asked).toHaveLength(1);
    expect(asked[0].body.messages?.[1].content).toContain("49 euros per seat per month");
  }, 30_000);

  it("falls back to the quoted passage when the endpoint errs", async () => {
    peer.onChat(() => ({ status: 500, error: "model crashed" }));
    await append(message({ id: "a2", from: "ai2@h.test", body: "How much does the Team plan cost per seat?" }));
    expect((await sync()).stored).toBe(1);
    expect((await replyOf("a2")).intent).toBe("QUESTION"); // classified by the rules instead
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(toLead("ai2@h.test")[0].parsed.text).toContain("> ");
    expect(toLead("ai2@h.test")[0].parsed.text).toContain("49 euros per seat per month");
    expect((await workOf((await replyOf("a2")).id))[0]).toMatchObject({ provider: "fallback" });
  }, 30_000);

  it("falls back when the endpoint never answers, and ingestion is not held up", async () => {
    peer.useAsProvider({ embeddings: false, timeoutMs: 300 });
    peer.onChat(() => ({ hang: true }));
    await append(message({ id: "a3", from: "ai3@i.test", body: "How much does the Team plan cost per seat?" }));
    const started = Date.now();
    expect((await sync()).stored).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 1 });
    expect(toLead("ai3@i.test")[0].parsed.text).toContain("49 euros per seat per month");
    expect((await workOf((await replyOf("a3")).id))[0]).toMatchObject({ status: "SENT", provider: "fallback" });
  }, 30_000);
});

describe("the agent's activity", () => {
  it("lists answers sent with their conversations, skips with reasons, newest first; another workspace gets 404", async () => {
    const res = await call(ACTIVITY, "GET", "", { key: ws.readKey, params: { id: agentId } });
    expect(res.status).toBe(200);
    const q1 = await replyOf("q1");
    const answered = res.body.activity.find((a: any) => a.replyId === q1.id && a.kind === "ANSWER");
    expect(answered).toMatchObject({
      status: "SENT",
      conversationId: leadIds[0],
      leadEmail: "asker@a.test",
      provider: "fallback",
      generatedBy: "template",
    });
    expect(answered.answer).toContain("49 euros per seat");
    expect(res.body.activity.some((a: any) => a.kind === "FOLLOW_UP" && a.status === "SENT")).toBe(true);
    expect(res.body.activity.some((a: any) => a.status === "SKIPPED" && a.reason === "NO_CREDITS")).toBe(true);
    expect(res.body.total).toBe(res.body.activity.length);
    const skipped = await call(ACTIVITY, "GET", "?status=SKIPPED", { key: ws.readKey, params: { id: agentId } });
    expect(skipped.body.activity.map((a: any) => a.reason).sort()).toEqual(["ANSWERED", "NO_CREDITS"]);
    const other = await makeWorkspace();
    const res404 = await call(ACTIVITY, "GET", "", { key: other.readKey, params: { id: agentId } });
    expect(res404.status).toBe(404);
    expect(res404.body.code).toBe("NOT_FOUND");
  });
});

describe("with autonomy off, the agent drafts for a person", () => {
  it("queues nothing, and the composer's draft is the agent's grounded answer", async () => {
    await patchAgent(systemCtx(ws.workspaceId, { db: getDb(), clock }), agentId, { autonomousReplies: false });
    clock.advance(60_000);
    await append(message({ id: "k2", from: "keen@c.test", body: "And is there a free trial of the Team plan?" }));
    await sync();
    const k2 = await replyOf("k2");
    expect(k2.intent).toBe("QUESTION");
    expect(await workOf(k2.id)).toEqual([]);
    clock.advance(5_000);
    expect(await run()).toMatchObject({ sent: 0, skipped: 0 });
    const d = await call(DRAFT, "POST", "", { key: ws.fullKey, params: { id: k2.id } });
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({
      provider: "agent-fallback",
      generatedBy: "template",
      agent: { id: agentId, name: "Acme helper" },
      draft: { to: [{ address: "keen@c.test" }] },
    });
    expect(d.body.draft.body).toContain("14-day free trial");
    expect(toLead("keen@c.test")).toHaveLength(1); // a draft never sends
  });
});
