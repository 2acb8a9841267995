import { beforeAll, describe, expect, it } from "vitest";
import { simpleParser } from "mailparser";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails } from "@/db/schema";
import { ManualClock, useClock } from "@/lib/clock";
import { ingestMessage } from "@/lib/inbox/ingest";
import { sendDue } from "@/lib/sending/engine";
import { flushTracking } from "@/lib/analytics/tracking-answer";
import { addMember, call, makeWorkspace } from "@/test/helpers";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";
import { GET as OPEN } from "@/app/t/o/[token]/route";
import { GET as CLICK } from "@/app/t/c/[token]/route";
import { GET } from "./route";

/**
 * The timeline from real work: a campaign sends through the SMTP peer, the pixel and the click
 * redirect are fetched, a reply is ingested as the IMAP sync would; a refused recipient bounces.
 */

const clock = new ManualClock(new Date("2026-11-03T10:00:00Z")); // a Tuesday

const suite = mailSuite({ domain: "tl.test", users: { "tom@tl.test": "pw" }, rejectRecipients: ["gone@tl-lead.test"] });

const timeline = (id: string, query = "", key = suite.ws.readKey) =>
  call(GET, "GET", `/leads/${id}/timeline${query}`, { key, params: { id } });

function reply(o: { from: string; inReplyTo: string; subject: string; text: string; id: string; date?: Date }) {
  return simpleParser(
    [
      `From: ${o.from}`,
      "To: Tom <tom@tl.test>",
      `Subject: Re: ${o.subject}`,
      `Message-ID: <${o.id}@tl-lead.test>`,
      `In-Reply-To: ${o.inReplyTo}`,
      `References: ${o.inReplyTo}`,
      `Date: ${(o.date ?? clock.now()).toUTCString()}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      o.text,
      "",
    ].join("\n"),
  );
}

/** The campaign: one A/B-labelled tracked step to three leads (Rita reads and answers, Gone bounces, Una unsubscribes). */
async function sendCampaign() {
  useClock(clock);
  const [mbx] = await connectMailboxes(suite.ws.fullKey, [{ email: "tom@tl.test", appPassword: "pw", senderName: "Tom" }]);
  const launched = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: "Timeline launch", minGapMinutes: 0, trackOpens: true, trackClicks: true },
    steps: [
      {
        stepOrder: 0,
        variantGroup: "A",
        subject: "Idea for {{firstName}}",
        bodyTemplate: "See https://example.com/offer",
        bodyHtmlTemplate: '<p>See <a href="https://example.com/offer">the offer</a></p>',
      },
    ],
    mailboxIds: [mbx.id],
    leads: [
      { email: "rita@tl-lead.test", firstName: "Rita" },
      { email: "gone@tl-lead.test", firstName: "Gone" },
      { email: "una@tl-lead.test", firstName: "Una" },
    ],
  });
  for (let i = 0; i < 5; i++) {
    clock.advance(60_000);
    await sendDue(getDb(), clock);
  }
  return { mbx, ...launched };
}

/** Rita opens the email, clicks its link and answers, a minute apart; returns her email row and the time of her reply. */
async function ritaEngages(mbx: { id: string; email: string }, rita: string) {
  const [sent] = await getDb().select().from(emails).where(eq(emails.leadId, rita));
  const wire = suite.world.smtp.received.find((m) => m.to.includes("rita@tl-lead.test"))!;
  const html = String(wire.parsed.html);
  const pixel = /\/t\/o\/([^"]+)"/.exec(html)![1];
  const link = /\/t\/c\/([^"?]+)\?url=([^"]+)"/.exec(html)!;
  clock.advance(60_000);
  await OPEN(new Request("http://localhost/t/o/x"), { params: Promise.resolve({ token: pixel }) });
  await flushTracking();
  clock.advance(60_000);
  await CLICK(new Request(`http://localhost/t/c/${link[1]}?url=${link[2]}`), { params: Promise.resolve({ token: link[1] }) });
  await flushTracking();
  clock.advance(60_000);
  const parsed = await reply({
    from: "Rita <rita@tl-lead.test>",
    inReplyTo: sent.messageId,
    subject: sent.subject,
    id: "rita-1",
    text: "Yes, I am interested. Can we talk on Thursday?\n\nOn Tue, Tom wrote:\n> See the offer",
  });
  await ingestMessage(getDb(), clock, { id: mbx.id, workspaceId: suite.ws.workspaceId, email: mbx.email }, parsed, { folder: "INBOX" });
  return { sent, repliedAt: clock.now().toISOString() };
}

let run: Awaited<ReturnType<typeof sendCampaign>> & Awaited<ReturnType<typeof ritaEngages>>;
beforeAll(async () => {
  const launched = await sendCampaign();
  run = { ...launched, ...(await ritaEngages(launched.mbx, launched.leadIds[0])) };
}, 60_000);

describe("GET /leads/<id>/timeline", () => {
  it("shows a real send, its open and click, and the reply with its intent, newest first", async () => {
    const { mbx, campaign, leadIds, sent, repliedAt } = run;
    const rita = leadIds[0];
    expect(sent.status).toBe("SENT");
    const r = await timeline(rita);
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: any) => e.kind)).toEqual(["replied", "clicked", "opened", "sent", "campaign_added"]);
    expect(r.body).toMatchObject({ page: 1, limit: 50, total: 5 });
    const times = r.body.events.map((e: any) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const [replied, clicked, opened, sentEv, added] = r.body.events;
    const step = { id: sent.stepId, order: 0, variant: "A" };
    const inCampaign = { id: campaign.id, name: "Timeline launch" };
    expect(sentEv).toEqual({
      at: sent.sentAt!.toISOString(),
      kind: "sent",
      campaign: inCampaign,
      step,
      detail: { emailId: sent.id, subject: "Idea for Rita", mailbox: { id: mbx.id, email: "tom@tl.test" } },
    });
    expect(opened).toMatchObject({ kind: "opened", campaign: inCampaign, step, detail: { emailId: sent.id } });
    expect(clicked).toMatchObject({ kind: "clicked", step, detail: { url: "https://example.com/offer" } });
    expect(replied).toMatchObject({
      kind: "replied",
      at: repliedAt,
      campaign: inCampaign,
      step,
      detail: { intent: "INTERESTED", automatic: false, snippet: "Yes, I am interested. Can we talk on Thursday?" },
    });
    // The lead's status in the campaign now: its one step is done.
    expect(added).toMatchObject({ kind: "campaign_added", campaign: inCampaign, detail: { status: "COMPLETED" } });
  });

  it("shows a hard bounce with its reason and the suppression it caused, and no send", async () => {
    const gone = run.leadIds[1];
    const r = await timeline(gone);
    expect(r.body.events.map((e: any) => e.kind)).toEqual(["suppressed", "bounced", "campaign_added"]);
    const [suppressed, bounced] = r.body.events;
    expect(bounced).toMatchObject({
      kind: "bounced",
      step: { order: 0, variant: "A" },
      detail: { bounceType: "hard", code: "5.1.1", reason: expect.stringContaining("User unknown"), mailbox: { email: "tom@tl.test" } },
    });
    expect(suppressed).toMatchObject({
      kind: "suppressed",
      detail: { entry: { kind: "email", value: "gone@tl-lead.test", id: expect.stringMatching(/^sup_/) }, reason: "hard_bounce" },
    });
  });

  it("shows an unsubscribe request as replied, unsubscribed (source reply) and suppressed; a reply never before its email", async () => {
    const { mbx, leadIds } = run;
    const una = leadIds[2];
    const [sent] = await getDb().select().from(emails).where(eq(emails.leadId, una));
    clock.advance(60_000);
    const parsed = await reply({
      from: "una@tl-lead.test",
      inReplyTo: sent.messageId,
      subject: sent.subject,
      id: "una-1",
      text: "Please unsubscribe me and remove me from your list.",
      // The writer's clock runs an hour behind: the reply still shows after the email it answers.
      date: new Date(sent.sentAt!.getTime() - 3_600_000),
    });
    await ingestMessage(getDb(), clock, { id: mbx.id, workspaceId: suite.ws.workspaceId, email: mbx.email }, parsed, { folder: "INBOX" });
    const events = (await timeline(una)).body.events;
    const kinds = events.map((e: any) => [e.kind, e.detail.source ?? e.detail.intent ?? e.detail.reason ?? null]);
    expect(kinds.slice(0, 4)).toEqual([
      ["suppressed", "unsubscribe_reply"],
      ["unsubscribed", "reply"],
      ["replied", "UNSUBSCRIBE_REQUEST"],
      ["sent", null],
    ]);
    expect(events[2].at).toBe(sent.sentAt!.toISOString());
  });

  it("pages newest first: each event once across pages, the total on every page, an empty page past the end", async () => {
    const rita = run.leadIds[0];
    const all = (await timeline(rita)).body.events;
    const pages = [];
    for (const page of [1, 2, 3]) pages.push((await timeline(rita, `?page=${page}&limit=2`)).body);
    expect(pages.map((p) => [p.page, p.limit, p.total, p.events.length])).toEqual([
      [1, 2, 5, 2],
      [2, 2, 5, 2],
      [3, 2, 5, 1],
    ]);
    expect(pages.flatMap((p) => p.events)).toEqual(all);
    expect((await timeline(rita, "?page=9&limit=2")).body).toMatchObject({ events: [], total: 5 });
    const over = await timeline(rita, "?limit=201");
    expect([over.status, over.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect((await timeline(rita, "?page=0")).status).toBe(400);
  });

  it("answers 404 for an unknown lead and for another workspace's lead, and refuses a client seat", async () => {
    const rita = run.leadIds[0];
    const unknown = await timeline("lead_nope");
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
    const other = await makeWorkspace();
    expect((await timeline(rita, "", other.readKey)).status).toBe(404);
    const client = await addMember(suite.ws.workspaceId, "client");
    const refused = await timeline(rita, "", client.key);
    expect([refused.status, refused.body.code]).toEqual([403, "FORBIDDEN"]);
    const member = await addMember(suite.ws.workspaceId, "member");
    expect((await timeline(rita, "", member.key)).status).toBe(200);
    expect((await timeline(rita, "", suite.ws.readKey)).status).toBe(200); // a read-only key reads it (R)
  });
});
