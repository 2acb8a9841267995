import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, emails, events, leadBranches, leadEvents, mailboxes, replies } from "@/db/schema";
import { ManualClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { syncMailbox } from "@/lib/inbox/sync";
import { call } from "@/test/helpers";
import { appendMessages } from "@/test/mail-messages";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { POST as CREATE_SUB } from "@/app/api/v1/campaigns/[id]/subsequences/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { GET as STATS } from "@/app/api/v1/campaigns/[id]/stats/route";
import { GET as LEAD_CAMPAIGNS } from "@/app/api/v1/leads/[id]/campaigns/route";
import { decideBranches } from "./branching";
import { sendDue } from "./engine";

const suite = mailSuite({ domain: "branch.test", users: { "bo@branch.test": "pw" } });
const ANY_TIME = { sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], sendWindowStartHour: 0, sendWindowEndHour: 24, minGapMinutes: 0 };
const HOUR = 3_600_000;

function reply(o: { id: string; from: string; inReplyTo: string; body: string; date?: string }): string {
  return [
    `From: ${o.from}`,
    "To: Bo <bo@branch.test>",
    "Subject: Re: Idea",
    `Message-ID: <${o.id}@lead.test>`,
    `Date: ${o.date ?? "Mon, 07 Dec 2026 11:00:00 +0000"}`,
    `In-Reply-To: ${o.inReplyTo}`,
    `References: ${o.inReplyTo}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body,
    "",
  ].join("\n");
}

/** A campaign whose first step branches: INTERESTED → the "Booking" subsequence, NOT_INTERESTED → stop, 48 h of silence → on. */
async function branchingCampaign(key: string, mailboxId: string, leads: string[]) {
  const { campaign, leadIds, launched } = await launchCampaign(key, {
    campaign: { name: "Branches", ...ANY_TIME },
    steps: [{ stepOrder: 0, subject: "Idea", bodyTemplate: "Hi" }],
    mailboxIds: [mailboxId],
    leads: leads.map((email) => ({ email })),
  });
  expect(launched.body.status).toBe("ACTIVE");
  const sub = await call(CREATE_SUB, "POST", "", { key, params: { id: campaign.id }, body: { name: "Booking" } });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const subSteps = await call(PUT_STEPS, "PUT", "", {
    key,
    params: { id: campaign.id },
    body: {
      subsequenceId: sub.body.id,
      steps: [{ stepOrder: 0, bodyTemplate: "Great, here is my calendar.", delayHoursAfterPrevious: 1 }],
    },
  });
  expect(subSteps.status, JSON.stringify(subSteps.body)).toBe(200);
  const branches = [
    { when: { replied: ["INTERESTED"] }, action: { type: "subsequence", subsequenceId: sub.body.id } },
    { when: { replied: ["NOT_INTERESTED"] }, action: { type: "stop" } },
    { when: { noReplyAfterHours: 48 }, action: { type: "continue" } },
  ];
  const main = await call(PUT_STEPS, "PUT", "", {
    key,
    params: { id: campaign.id },
    body: {
      steps: [
        { stepOrder: 0, subject: "Idea", bodyTemplate: "Hi", branches },
        { stepOrder: 1, bodyTemplate: "Bump", delayHoursAfterPrevious: 48 },
      ],
    },
  });
  expect(main.status, JSON.stringify(main.body)).toBe(200);
  expect(main.body.steps[0].branches).toEqual(branches);
  return { campaignId: campaign.id as string, leadIds, subsequenceId: sub.body.id as string };
}

const placeOf = async (campaignId: string, leadId: string) =>
  (
    await getDb()
      .select()
      .from(campaignLeads)
      .where(and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.leadId, leadId)))
  )[0];

describe("branches through real SMTP and IMAP", () => {
  it("an INTERESTED reply moves the lead into a threaded subsequence, NOT_INTERESTED stops it, silence takes the no-reply branch", async () => {
    const clock = new ManualClock(new Date("2026-12-07T10:00:00Z"));
    useClock(clock);
    const [mbx] = await connectMailboxes(suite.ws.fullKey, [{ email: "bo@branch.test", appPassword: "pw" }]);
    const { campaignId, leadIds, subsequenceId } = await branchingCampaign(suite.ws.fullKey, mbx.id, [
      "keen@lead.test",
      "nope@lead.test",
      "quiet@lead.test",
    ]);
    const [keen, nope, quiet] = leadIds;
    for (let i = 0; i < 3; i++) await sendDue(getDb(), clock);
    const first = await getDb().select().from(emails).where(eq(emails.campaignId, campaignId));
    expect(first).toHaveLength(3);
    expect((await placeOf(campaignId, quiet)).branchStepId).toBe(first[0].stepId); // waiting for its rules
    const msgId = (to: string) => first.find((e) => e.leadEmail === to)!.messageId;

    await appendMessages(suite.world.imap, { username: "bo@branch.test", password: "pw" }, [
      reply({ id: "k1", from: "keen@lead.test", inReplyTo: msgId("keen@lead.test"), body: "Sounds interesting, can we book a call?" }),
      // This lead's clock runs slow: its Date header is before the send, and the threaded reply still counts.
      reply({
        id: "n1",
        from: "nope@lead.test",
        inReplyTo: msgId("nope@lead.test"),
        body: "We are not interested, thanks.",
        date: "Mon, 07 Dec 2026 09:58:00 +0000",
      }),
    ]);
    clock.set(new Date("2026-12-07T11:05:00Z"));
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, mbx.id));
    await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m);
    const intents = await getDb()
      .select({ intent: replies.intent, leadId: replies.leadId })
      .from(replies)
      .where(eq(replies.campaignId, campaignId));
    expect(new Map(intents.map((r) => [r.leadId, r.intent]))).toEqual(
      new Map([
        [keen, "INTERESTED"],
        [nope, "NOT_INTERESTED"],
      ]),
    );
    // A reply does not stop a lead whose step branches: the rules decide.
    expect((await placeOf(campaignId, nope)).status).toBe("ACTIVE");

    expect(await decideBranches(getDb(), clock)).toEqual({ decided: 2, pending: 0 });
    expect(await placeOf(campaignId, keen)).toMatchObject({ status: "ACTIVE", subsequenceId, nextStepOrder: 0, branchStepId: null });
    expect(await placeOf(campaignId, nope)).toMatchObject({ status: "REPLIED", nextSendAt: null, branchStepId: null });
    const branched = (await getDb().select().from(events).where(eq(events.event, "lead.branched"))).map((e) => e.data as any);
    expect(branched.find((d) => d.leadId === keen)).toMatchObject({
      rule: "replied INTERESTED",
      action: { type: "subsequence", subsequenceId },
    });
    expect(branched.find((d) => d.leadId === nope)).toMatchObject({ rule: "replied NOT_INTERESTED", action: { type: "stop" } });
    const timeline = await getDb()
      .select()
      .from(leadEvents)
      .where(and(eq(leadEvents.leadId, keen), eq(leadEvents.kind, "branched")));
    expect(timeline).toHaveLength(1);
    // The lead's page says where it is and why.
    const where = (await call(LEAD_CAMPAIGNS, "GET", "", { key: suite.ws.readKey, params: { id: keen } })).body.campaigns[0];
    expect(where).toMatchObject({
      subsequence: { id: subsequenceId, name: "Booking" },
      waitingOnBranch: false,
      lastBranch: { rule: "replied INTERESTED", action: { type: "subsequence", subsequenceId } },
    });
    const waiting = (await call(LEAD_CAMPAIGNS, "GET", "", { key: suite.ws.readKey, params: { id: quiet } })).body.campaigns[0];
    expect(waiting).toMatchObject({ subsequence: null, waitingOnBranch: true, lastBranch: null });

    // The subsequence's step, an hour later, continues the thread.
    clock.set(new Date("2026-12-07T12:10:00Z"));
    await sendDue(getDb(), clock);
    const wire = suite.world.smtp.received.filter((r) => r.to.includes("keen@lead.test"));
    expect(wire).toHaveLength(2);
    expect(wire[1].parsed.subject).toBe("Re: Idea");
    expect(wire[1].parsed.inReplyTo).toBe(msgId("keen@lead.test"));
    expect(wire[1].parsed.text?.trim()).toBe("Great, here is my calendar.");
    expect((await placeOf(campaignId, keen)).status).toBe("COMPLETED");

    // Before 48 h the quiet lead's rules are not due; after them, the no-reply branch sends the next step.
    expect(await decideBranches(getDb(), clock)).toEqual({ decided: 0, pending: 0 });
    clock.set(new Date(new Date("2026-12-07T10:00:00Z").getTime() + 48 * HOUR + 60_000));
    expect(await decideBranches(getDb(), clock)).toEqual({ decided: 1, pending: 0 });
    await sendDue(getDb(), clock);
    const toQuiet = suite.world.smtp.received.filter((r) => r.to.includes("quiet@lead.test"));
    expect(toQuiet.map((r) => r.parsed.text?.trim())).toEqual(["Hi", "Bump"]);
    expect(suite.world.smtp.received.filter((r) => r.to.includes("nope@lead.test"))).toHaveLength(1);
    const decisions = await getDb().select().from(leadBranches).where(eq(leadBranches.campaignId, campaignId));
    expect(decisions.map((d) => [d.leadId, d.rule]).sort()).toEqual(
      [
        [keen, "replied INTERESTED"],
        [nope, "replied NOT_INTERESTED"],
        [quiet, "no reply after 48 h"],
      ].sort(),
    );

    // Stats beside the step stats: the subsequence's leads and sends, and how many leads took each branch.
    const stats = (await call(STATS, "GET", "", { key: suite.ws.readKey, params: { id: campaignId } })).body;
    expect(stats.subsequences).toEqual([{ id: subsequenceId, name: "Booking", entered: 1, sent: 1, replied: 0, positive: 0 }]);
    expect(stats.branches.map((b: any) => [b.ruleIndex, b.action, b.taken])).toEqual([
      [0, "subsequence", 1],
      [1, "stop", 1],
      [2, "continue", 1],
    ]);
    expect(stats.variants.find((v: any) => v.subsequenceId === subsequenceId)).toMatchObject({ stepOrder: 0, sent: 1 });
  }, 60_000);

  it("applies a decision at most once: a failure between decision and effect applies neither, and two workers apply it once", async () => {
    const clock = new ManualClock(new Date("2026-12-14T10:00:00Z"));
    useClock(clock);
    const [mbx] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "bo@branch.test"));
    const { campaignId, leadIds } = await branchingCampaign(suite.ws.fullKey, mbx.id, ["crash@lead.test"]);
    await sendDue(getDb(), clock);
    clock.set(new Date(clock.now().getTime() + 49 * HOUR));
    // The effect's UPDATE fails after the lead_branches row is written (as a worker killed mid-transaction).
    await getDb().execute(
      sql.raw(`create or replace function fail_branch() returns trigger language plpgsql as $$
      begin if old.branch_step_id is not null and new.branch_step_id is null then raise exception 'killed'; end if; return new; end $$`),
    );
    await getDb().execute(
      sql.raw("create trigger fail_branch before update on campaign_leads for each row execute function fail_branch()"),
    );
    try {
      await expect(decideBranches(getDb(), clock)).rejects.toThrow();
    } finally {
      await getDb().execute(sql.raw("drop trigger fail_branch on campaign_leads"));
    }
    expect(await getDb().select().from(leadBranches).where(eq(leadBranches.campaignId, campaignId))).toHaveLength(0);
    expect((await placeOf(campaignId, leadIds[0])).branchStepId).not.toBeNull();

    const [a, b] = await Promise.all([decideBranches(getDb(), clock), decideBranches(getDb(), clock)]);
    expect(a.decided + b.decided).toBeGreaterThanOrEqual(1);
    expect(await getDb().select().from(leadBranches).where(eq(leadBranches.campaignId, campaignId))).toHaveLength(1);
    const fired = (await getDb().select().from(events).where(eq(events.event, "lead.branched"))).filter(
      (e) => (e.data as any).leadId === leadIds[0],
    );
    expect(fired).toHaveLength(1);
    expect(await placeOf(campaignId, leadIds[0])).toMatchObject({ branchStepId: null, nextStepOrder: 1 });
    expect(await decideBranches(getDb(), clock)).toEqual({ decided: 0, pending: 0 });
  }, 60_000);
});
