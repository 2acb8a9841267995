import { systemCtx } from "@/lib/ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, emails, events, mailboxes, replies, suppressions } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { sendDue } from "@/lib/sending/engine";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { appendMessages, hardBounceReport } from "@/test/mail-messages";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { syncMailbox } from "./sync";
import { ImapConnections } from "./connections";
import { GET as LIST_REPLIES } from "@/app/api/v1/replies/route";
import { GET as THREADS } from "@/app/api/v1/replies/threads/route";
import { GET as THREAD } from "@/app/api/v1/replies/thread/[leadId]/route";
import { POST as READ } from "@/app/api/v1/replies/thread/[leadId]/read/route";
import { GET as UNREAD } from "@/app/api/v1/replies/unread-count/route";
import { GET as SUMMARY } from "@/app/api/v1/replies/summary/route";
import { GET as UNMATCHED } from "@/app/api/v1/replies/unmatched/route";
import { PATCH as STAR } from "@/app/api/v1/replies/[id]/star/route";
import { PATCH as REMIND } from "@/app/api/v1/replies/[id]/remind/route";
import { POST as SEND } from "@/app/api/v1/replies/[id]/send/route";
import { POST as RETRY } from "@/app/api/v1/replies/sent/[id]/retry/route";
import { sendQueuedReplies } from "./send-reply";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-03T10:00:00Z"));

beforeAll(async () => {
  world = await startMailWorld({ domain: "inbox.test", users: { "ann@inbox.test": "pw" }, rejectRecipients: ["bounce@a.test"] });
  ws = await makeWorkspace();
}, 60_000);
afterAll(async () => {
  closeAllTransports();
  await world.close();
});

const append = (raw: string, folder = "INBOX") => appendMessages(world.imap, { username: "ann@inbox.test", password: "pw" }, [raw], folder);

function message(o: { from: string; subject: string; body: string; inReplyTo?: string; headers?: string; id: string }) {
  return [
    `From: ${o.from}`,
    "To: Ann <ann@inbox.test>",
    `Subject: ${o.subject}`,
    `Message-ID: <${o.id}@sender.test>`,
    "Date: Tue, 03 Nov 2026 11:00:00 +0000",
    ...(o.inReplyTo ? [`In-Reply-To: ${o.inReplyTo}`, `References: ${o.inReplyTo}`] : []),
    ...(o.headers ? [o.headers] : []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body,
    "",
  ].join("\n");
}

describe("IMAP reply sync", () => {
  it("matches replies by thread, address and colleague, classifies them, applies their effects, and keeps unmatched mail", async () => {
    const mbx = (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: "ann@inbox.test" }, body: { appPassword: "pw" } }))
      .body;
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
        key: ws.fullKey,
        body: { name: "Inbox", minGapMinutes: 0, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
      })
    ).body;
    await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: {
        steps: [
          { stepOrder: 0, subject: "Idea", bodyTemplate: "Hi" },
          { stepOrder: 1, bodyTemplate: "Bump", delayHoursAfterPrevious: 48 },
        ],
      },
    });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: [mbx.id] } });
    const addrs = ["keen@a.test", "away@b.test", "boss@c-corp.test", "stop@d.test"];
    const leadIds = (await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: addrs.map((email) => ({ email })) } }))
      .body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds } });
    await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } });
    for (let i = 0; i < 6; i++) {
      await sendDue(getDb(), clock);
      clock.advance(60_000);
    }
    const sent = await getDb().select().from(emails).where(eq(emails.campaignId, c.id));
    expect(sent).toHaveLength(4);
    const msgId = (to: string) => sent.find((e) => e.leadEmail === to)!.messageId;
    await append(
      message({
        id: "r1",
        from: "Kim <keen@a.test>",
        subject: "Re: Idea",
        inReplyTo: msgId("keen@a.test"),
        body: "Sounds interesting, can we book a call?\n\nOn Tue, Ann wrote:\n> Hi",
      }),
    );
    await append(
      message({
        id: "r2",
        from: "away@b.test",
        subject: "Automatic reply: Idea",
        headers: "Auto-Submitted: auto-replied",
        body: "I am out of the office until Monday.",
      }),
    );
    await append(
      message({ id: "r3", from: "Jane <jane@c-corp.test>", subject: "Re: Idea", body: "I handle this for Bob. What does it cost?" }),
    );
    await append(message({ id: "r4", from: "stop@d.test", subject: "Re: Idea", body: "Please remove me from your list." }));
    await append(message({ id: "r5", from: "stranger@nowhere.test", subject: "Hello", body: "Random message" }));

    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, mbx.id));
    expect(await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m)).toEqual({ fetched: 5, stored: 5, bounces: 0, sent: 0 });
    expect(await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m)).toEqual({ fetched: 0, stored: 0, bounces: 0, sent: 0 }); // incremental: nothing new

    const rows = await getDb().select().from(replies).where(eq(replies.workspaceId, ws.workspaceId));
    const by = (id: string) => rows.find((r) => r.messageId === `<${id}@sender.test>`)!;
    expect([by("r1").leadId, by("r1").intent, by("r1").emailId]).toEqual([
      leadIds[0],
      "INTERESTED",
      sent.find((e) => e.leadEmail === "keen@a.test")!.id,
    ]);
    expect([by("r2").leadId, by("r2").intent, by("r2").isAutoReply]).toEqual([leadIds[1], "OUT_OF_OFFICE", true]);
    expect([by("r3").leadId, by("r3").intent, by("r3").from]).toEqual([
      leadIds[2],
      "QUESTION",
      { name: "Jane", address: "jane@c-corp.test" },
    ]);
    expect([by("r4").leadId, by("r4").intent]).toEqual([leadIds[3], "UNSUBSCRIBE_REQUEST"]);
    expect([by("r5").leadId, by("r5").intent]).toEqual([null, "UNCLASSIFIED"]);

    const status = async (leadId: string) =>
      (
        await getDb()
          .select()
          .from(campaignLeads)
          .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.leadId, leadId)))
      )[0].status;
    expect(await status(leadIds[0])).toBe("REPLIED"); // stop on reply
    expect(await status(leadIds[1])).toBe("ACTIVE"); // an automatic reply does not stop it (stopOnAutoReply is off)
    expect(await status(leadIds[2])).toBe("REPLIED"); // a colleague answering counts
    expect(await status(leadIds[3])).toBe("UNSUBSCRIBED");
    expect((await getDb().select().from(suppressions).where(eq(suppressions.value, "stop@d.test"))).length).toBe(1);

    const evs = await getDb().select().from(events).where(eq(events.workspaceId, ws.workspaceId));
    const names = (n: string) => evs.filter((e) => e.event === n).map((e) => e.data);
    expect(names("email.replied")).toHaveLength(4);
    expect(names("email.positive_reply")).toEqual([{ replyId: by("r1").id, leadId: leadIds[0] }]);
    expect(names("lead.unsubscribed")).toEqual([{ replyId: by("r4").id, leadId: leadIds[3], leadEmail: "stop@d.test", source: "reply" }]);
  }, 60_000);

  it("serves the inbox: threads, a conversation, unread counts, read, star, remind, filters and summary", async () => {
    useClock(new ManualClock(new Date("2026-11-04T09:00:00Z")));
    try {
      const unread = await call(UNREAD, "GET", "", { key: ws.readKey });
      expect(unread.body).toEqual({ messages: 4, conversations: 4 }); // unmatched mail is not a conversation
      const threads = (await call(THREADS, "GET", "/replies/threads", { key: ws.readKey })).body;
      expect(threads).toMatchObject({ page: 1, limit: 50, total: 4 });
      const keen = threads.threads.find((t: any) => t.lead.email === "keen@a.test");
      expect(keen).toMatchObject({
        unreadCount: 1,
        replyCount: 1,
        answered: false,
        mailbox: { email: "ann@inbox.test" },
        campaign: { name: "Inbox" },
      });
      expect(keen.latestReply).toMatchObject({
        intentClassification: "INTERESTED",
        from: { name: "Kim", address: "keen@a.test" },
        starred: false,
        remindAt: null,
      });
      const interested = (await call(THREADS, "GET", "/replies/threads?intent=INTERESTED", { key: ws.readKey })).body;
      expect(interested.threads.map((t: any) => t.lead.email)).toEqual(["keen@a.test"]);

      const convo = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: keen.leadId } })).body;
      expect(convo.lead.email).toBe("keen@a.test");
      expect(convo.messages.map((m: any) => [m.direction, m.subject])).toEqual([
        ["outbound", "Idea"],
        ["inbound", "Re: Idea"],
      ]);
      expect(convo.messages[0]).toMatchObject({ kind: "campaign", campaign: { name: "Inbox" }, mailboxEmail: "ann@inbox.test" });
      expect(convo.messages[1]).toMatchObject({
        intentClassification: "INTERESTED",
        from: { address: "keen@a.test" },
        to: [{ name: "Ann", address: "ann@inbox.test" }],
      });

      expect((await call(READ, "POST", "", { key: ws.fullKey, params: { leadId: keen.leadId } })).body).toEqual({ marked: 1 });
      expect((await call(UNREAD, "GET", "", { key: ws.readKey })).body).toEqual({ messages: 3, conversations: 3 });
      const rid = keen.latestReply.id;
      expect((await call(STAR, "PATCH", "", { key: ws.fullKey, params: { id: rid }, body: { starred: true } })).body.starred).toBe(true);
      const remind = await call(REMIND, "PATCH", "", {
        key: ws.fullKey,
        params: { id: rid },
        body: { remindAt: "2026-11-06T09:00:00+01:00" },
      });
      expect(remind.body.remindAt).toBe("2026-11-06T08:00:00.000Z");
      expect((await call(REMIND, "PATCH", "", { key: ws.fullKey, params: { id: rid }, body: { remindAt: "soon" } })).status).toBe(400);
      const withReminder = (await call(LIST_REPLIES, "GET", "/replies?hasReminder=true", { key: ws.readKey })).body;
      expect(withReminder.replies.map((r: any) => r.id)).toEqual([rid]);
      const search = (await call(LIST_REPLIES, "GET", "/replies?q=remove%20me", { key: ws.readKey })).body;
      expect(search.replies.map((r: any) => r.intentClassification)).toEqual(["UNSUBSCRIBE_REQUEST"]);
      expect((await call(SUMMARY, "GET", "", { key: ws.readKey })).body).toEqual({ today: 0, yesterday: 4, earlier: 0 });
      const unmatched = (await call(UNMATCHED, "GET", "/replies/unmatched", { key: ws.readKey })).body;
      expect(unmatched.replies.map((r: any) => [r.from.address, r.subject, r.mailboxEmail])).toEqual([
        ["stranger@nowhere.test", "Hello", "ann@inbox.test"],
      ]);
      const other = await makeWorkspace();
      expect((await call(THREAD, "GET", "", { key: other.readKey, params: { leadId: keen.leadId } })).status).toBe(404);
      expect((await call(STAR, "PATCH", "", { key: other.fullKey, params: { id: rid }, body: { starred: false } })).status).toBe(404);
    } finally {
      useClock(systemClock);
    }
  });

  it("sends replies: threaded, synchronous or in the background, only to the conversation through an API key, retryable", async () => {
    const clock2 = new ManualClock(new Date("2026-11-04T10:00:00Z"));
    useClock(clock2);
    try {
      const keenThread = (await call(THREADS, "GET", "/replies/threads?intent=INTERESTED", { key: ws.readKey })).body.threads[0];
      const rid = keenThread.latestReply.id;
      const before = world.smtp.received.length;
      const ok = await call(SEND, "POST", "", { key: ws.fullKey, params: { id: rid }, body: { body: "Great — Thursday 10:00 works." } });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ sent: true, sentReplyId: expect.stringMatching(/^srp_/), sentAt: "2026-11-04T10:00:00.000Z" });
      const wire = world.smtp.received[before];
      expect(wire.to).toEqual(["keen@a.test"]); // default: whoever wrote the message answered
      expect(wire.parsed.subject).toBe("Re: Idea");
      expect(wire.parsed.inReplyTo).toBe("<r1@sender.test>");
      expect(wire.parsed.references).toContain("<r1@sender.test>");
      const convo = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: keenThread.leadId } })).body;
      expect(convo.messages.at(-1)).toMatchObject({
        kind: "reply",
        direction: "outbound",
        sentBy: "API",
        status: "SENT",
        body: "Great — Thursday 10:00 works.",
        to: [{ address: "keen@a.test" }],
      });
      const answered = (await call(THREADS, "GET", "/replies/threads?intent=INTERESTED", { key: ws.readKey })).body.threads[0];
      expect([answered.answered, answered.lastAnsweredAt]).toEqual([true, "2026-11-04T10:00:00.000Z"]);

      // Through an API key, only people already in the conversation — however the address is dressed up.
      for (const to of ["outsider@z.test", { name: "keen@a.test", address: "outsider@z.test" }]) {
        const r = await call(SEND, "POST", "", { key: ws.fullKey, params: { id: rid }, body: { body: "x", to: [to] } });
        expect(r.status).toBe(403);
        expect(r.body.error).toContain("outsider@z.test");
      }
      expect(
        (
          await call(SEND, "POST", "", {
            key: ws.fullKey,
            params: { id: rid },
            body: { body: "x", to: ["Eve <keen@a.test>, evil@z.test"] },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await call(SEND, "POST", "", {
            key: ws.fullKey,
            params: { id: rid },
            body: { body: "x", cc: Array.from({ length: 21 }, (_, i) => `c${i}@a.test`) },
          })
        ).status,
      ).toBe(400);
      // A dashboard session may address anyone.
      const session = await call(SEND, "POST", "", {
        cookie: await sessionCookie(ws.userId),
        params: { id: rid },
        body: { body: "Looping in my colleague", cc: ["colleague@z.test"] },
      });
      expect(session.status).toBe(200);
      expect(world.smtp.received.at(-1)!.to.sort()).toEqual(["colleague@z.test", "keen@a.test"]);

      // Background: 202 at once, visible as SENDING, sent by the job.
      const bg = await call(SEND, "POST", "", { key: ws.fullKey, params: { id: rid }, body: { body: "Sent later", background: true } });
      expect(bg.status).toBe(202);
      expect(bg.body).toMatchObject({ queued: true, status: "SENDING" });
      const pending = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: keenThread.leadId } })).body.messages.find(
        (m: any) => m.id === bg.body.sentReplyId,
      );
      expect(pending.status).toBe("SENDING");
      expect(await sendQueuedReplies(getDb(), clock2)).toEqual({ sent: 1, failed: 0 });
      expect(await sendQueuedReplies(getDb(), clock2)).toEqual({ sent: 0, failed: 0 });

      // A refused send: 502 with the server's reason, FAILED, never resent on its own; retry → 202.
      const failing = await call(SEND, "POST", "", {
        cookie: await sessionCookie(ws.userId),
        params: { id: rid },
        body: { body: "x", to: ["bounce@a.test"] },
      });
      expect(failing.status).toBe(502);
      expect(failing.body).toMatchObject({ code: "UPSTREAM_ERROR", smtpResponseCode: 550 });
      expect(failing.body.error).toContain("User unknown");
      expect(await sendQueuedReplies(getDb(), clock2)).toEqual({ sent: 0, failed: 0 });
      const retry = await call(RETRY, "POST", "", { key: ws.fullKey, params: { id: failing.body.sentReplyId } });
      expect(retry.status).toBe(202);
      expect(retry.body.status).toBe("SENDING");
      expect((await call(RETRY, "POST", "", { key: ws.fullKey, params: { id: failing.body.sentReplyId } })).status).toBe(409);

      // A background reply still SENDING after 10 minutes shows as FAILED and can be retried.
      await getDb()
        .update((await import("@/db/schema")).sentReplies)
        .set({ leasedUntil: new Date("2026-11-05T00:00:00Z") })
        .where(eq((await import("@/db/schema")).sentReplies.id, failing.body.sentReplyId));
      clock2.advance(11 * 60_000);
      const stuck = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: keenThread.leadId } })).body.messages.find(
        (m: any) => m.id === failing.body.sentReplyId,
      );
      expect(stuck).toMatchObject({ status: "FAILED", error: expect.stringContaining("10 minutes") });
      expect((await call(RETRY, "POST", "", { key: ws.fullKey, params: { id: failing.body.sentReplyId } })).status).toBe(202);
    } finally {
      useClock(systemClock);
    }
  });

  it("reads bounce reports as bounces, the spam folder as replies, the Sent folder as answers written in a mail client, and survives malformed MIME", async () => {
    const sent = await getDb().select().from(emails).where(eq(emails.leadEmail, "away@b.test"));
    const original = sent[0].messageId;
    const dsn = hardBounceReport({
      to: "ann@inbox.test",
      messageId: "<dsn1@b.test>",
      recipient: "away@b.test",
      diagnostic: "550 5.1.1 The email account that you tried to reach does not exist",
      original,
    });
    await append(dsn);
    await append(message({ id: "spam1", from: "keen@a.test", subject: "Re: Idea", body: "Also — what's the price?" }), "Junk");
    await append(
      [
        "From: Ann <ann@inbox.test>",
        "To: Bob <boss@c-corp.test>",
        "Subject: Re: Idea",
        "Message-ID: <mua1@inbox.test>",
        "In-Reply-To: <r3@sender.test>",
        "Date: Wed, 04 Nov 2026 08:00:00 +0000",
        "",
        "Answered from Outlook.",
        "",
      ].join("\n"),
      "Sent",
    );
    // Broken MIME: a multipart whose boundary never appears, with a bogus encoding.
    await append(
      [
        "From: broken@nowhere.test",
        "Subject: =?utf-8?B?broken",
        'Content-Type: multipart/mixed; boundary="never"',
        "Content-Transfer-Encoding: base64",
        "",
        "%%% not base64 %%%",
        "",
      ].join("\n"),
    );
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "ann@inbox.test"));
    const r = await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m);
    expect(r).toMatchObject({ bounces: 1, sent: 1 });
    expect(r.stored).toBeGreaterThanOrEqual(1);
    const [bounced] = await getDb().select().from(emails).where(eq(emails.messageId, original));
    expect([bounced.status, bounced.bounceType, bounced.smtpCode]).toEqual(["BOUNCED", "HARD", "5.1.1"]);
    expect(bounced.smtpResponse).toContain("does not exist");
    expect((await getDb().select().from(suppressions).where(eq(suppressions.value, "away@b.test"))).length).toBe(1);
    expect((await getDb().select().from(replies).where(eq(replies.messageId, "<dsn1@b.test>"))).length).toBe(0); // not a reply
    const [spam] = await getDb().select().from(replies).where(eq(replies.messageId, "<spam1@sender.test>"));
    expect([spam.folder, spam.intent, spam.leadId !== null]).toEqual(["Junk", "QUESTION", true]);
    const boss = (await call(THREADS, "GET", "/replies/threads", { key: ws.readKey })).body.threads.find(
      (t: any) => t.lead.email === "boss@c-corp.test",
    );
    const convo = (await call(THREAD, "GET", "", { key: ws.readKey, params: { leadId: boss.leadId } })).body;
    expect(convo.messages.at(-1)).toMatchObject({
      kind: "reply",
      sentBy: "HUMAN",
      status: "SENT",
      body: expect.stringMatching(/^Answered from Outlook\.\s*$/),
    });
    expect(await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m)).toEqual({ fetched: 0, stored: 0, bounces: 0, sent: 0 });
  });

  it("keeps the connection open between cycles and still sees new mail", async () => {
    const pool = new ImapConnections();
    const [m] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "ann@inbox.test"));
    expect((await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m, { pool: pool })).fetched).toBe(0);
    await append(message({ id: "late1", from: "keen@a.test", subject: "Re: Idea", body: "One more thing?" }));
    expect(await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m, { pool: pool })).toMatchObject({ fetched: 1, stored: 1 });
    expect(pool.size).toBe(1);
    await pool.closeAll();
  });
});
