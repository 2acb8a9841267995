import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, leads, replies } from "@/db/schema";
import { createAgent } from "@/lib/reply-agents/crud";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { ingestMessage } from "@/lib/inbox/ingest";
import { call, makeWorkspace } from "@/test/helpers";
import { insertEmail, insertMailbox } from "@/test/factories";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { addReferralsAutonomously } from "./referrals";

const clock = new ManualClock(new Date("2026-11-20T10:00:00Z"));
const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;

describe("referrals under autonomous handling", () => {
  it("adds the person a wrong-person reply names to the campaign of an autonomous reply agent, once; other campaigns wait for a click", async () => {
    const ws = await makeWorkspace();
    const tag = randomBytes(3).toString("hex");
    const m = await insertMailbox(ws.workspaceId, `me-${tag}@auto-ref.test`);
    const mb = { id: m.id, workspaceId: ws.workspaceId, email: m.email };
    const campaign = async (name: string) => {
      const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name } })).body;
      await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: [m.id] } });
      return c.id as string;
    };
    const [auto, manual] = [await campaign("Autonomous"), await campaign("By hand")];
    await createAgent(systemCtx(ws.workspaceId, { db: getDb(), clock }), {
      name: "Helper",
      companyName: "Acme",
      tone: "FRIENDLY",
      autonomousReplies: true,
      followUpsEnabled: false,
      followUpDays: 3,
      campaignIds: [auto],
    });
    const reply = async (campaignId: string, who: string, referred: string) => {
      const [leadId] = (
        await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: who, firstName: "Sam" }] } })
      ).body.leadIds;
      await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: campaignId }, body: { leadIds: [leadId] } });
      const messageId = `<eml-${randomBytes(4).toString("hex")}@out.test>`;
      await insertEmail(ws.workspaceId, m.id, { leadId, leadEmail: who, campaignId, messageId });
      const raw = [
        `From: Sam <${who}>`,
        `To: ${m.email}`,
        "Subject: Re: Idea",
        `Message-ID: <r-${randomBytes(4).toString("hex")}@client.test>`,
        `In-Reply-To: ${messageId}`,
        "Date: Fri, 20 Nov 2026 09:00:00 +0000",
        "Content-Type: text/plain; charset=utf-8",
        "",
        `I'm not the right person for this, please reach out to ${referred}.`,
        "",
      ].join("\r\n");
      const r = await ingestMessage(getDb(), clock, mb, await simpleParser(raw), { folder: "INBOX" });
      expect(r?.intent).toBe("WRONG_PERSON");
      return r!.replyId;
    };
    const autoReply = await reply(auto, `sam-${tag}@client.test`, `jane-${tag}@acme.test`);
    const manualReply = await reply(manual, `sid-${tag}@client.test`, `joe-${tag}@acme.test`);

    expect(await addReferralsAutonomously(getDb(), clock, quiet)).toBe(1);
    const [jane] = await getDb()
      .select()
      .from(leads)
      .where(eq(leads.email, `jane-${tag}@acme.test`));
    expect(jane.customFields).toMatchObject({ referrerName: "Sam", referrerEmail: `sam-${tag}@client.test` });
    expect((await getDb().select().from(campaignLeads).where(eq(campaignLeads.leadId, jane.id)))[0].campaignId).toBe(auto);
    const [marked] = await getDb().select().from(replies).where(eq(replies.id, autoReply));
    expect(marked.referral).toMatchObject({ email: `jane-${tag}@acme.test`, leadId: jane.id });
    // Taken up once; the campaign without an autonomous agent keeps its referral for a person to add.
    expect(await addReferralsAutonomously(getDb(), clock, quiet)).toBe(0);
    expect(
      await getDb()
        .select()
        .from(leads)
        .where(eq(leads.email, `joe-${tag}@acme.test`)),
    ).toHaveLength(0);
    const [untouched] = await getDb().select().from(replies).where(eq(replies.id, manualReply));
    expect((untouched.referral as Record<string, unknown>).leadId).toBeUndefined();
  });
});
