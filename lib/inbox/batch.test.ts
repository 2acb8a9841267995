import { systemCtx } from "@/lib/ctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { getDb } from "@/db/client";
import {
  campaignLeads,
  campaigns,
  emails,
  events,
  imapState,
  leads,
  replies,
  sentReplies,
  suppressions,
  warmupMessages,
} from "@/db/schema";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { ManualClock } from "@/lib/clock";
import { memoryLogger } from "@/lib/log";
import { newId } from "@/lib/ids";
import { makeWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { appendMessages, hardBounceReport } from "@/test/mail-messages";
import { startImapPeer } from "@/test/peers/imap";
import { ingestMessage, ingestOwnMessage } from "./ingest";
import { BATCH_MESSAGES, syncMailbox } from "./sync";

const clock = new ManualClock(new Date("2026-11-10T10:00:00Z"));
const users = { "ann@batch.test": "pw", "bo@batch.test": "pw", "cy@batch.test": "pw" };
type User = keyof typeof users;
// hoodiecrow keeps one message store per server whoever logs in: one server per account keeps them apart.
const peers = {} as Record<User, Awaited<ReturnType<typeof startImapPeer>>>;

beforeAll(async () => {
  for (const u of Object.keys(users) as User[]) peers[u] = await startImapPeer({ users: { [u]: users[u] } });
});
afterAll(async () => {
  for (const p of Object.values(peers)) await p.close();
});

function append(user: User, raws: string[], folder = "INBOX"): Promise<number[]> {
  return appendMessages(peers[user], { username: user, password: users[user] }, raws, folder);
}

function mail(o: { id: string; from?: string; subject?: string; body: string; inReplyTo?: string; headers?: string[]; to?: string }) {
  return [
    ...(o.from ? [`From: ${o.from}`] : []),
    `To: ${o.to ?? "Ann <ann@batch.test>"}`,
    `Subject: ${o.subject ?? "Re: Idea"}`,
    `Message-ID: ${o.id.startsWith("<") ? o.id : `<${o.id}@sender.test>`}`,
    "Date: Tue, 10 Nov 2026 09:00:00 +0000",
    ...(o.inReplyTo ? [`In-Reply-To: ${o.inReplyTo}`, `References: ${o.inReplyTo}`] : []),
    ...(o.headers ?? []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body,
    "",
  ].join("\n");
}

/**
 * Records Message-IDs as warmup mail sent to `to` by a partner mailbox of its workspace, as the warmup
 * job does before its SMTP conversation: the receiving side knows warmup mail by nothing else.
 */
async function recordWarmup(to: { id: string; workspaceId: string; email: string }, ids: string[]) {
  const peer = await insertMailbox(to.workspaceId, `peer-${randomBytes(3).toString("hex")}@warm.test`);
  await getDb()
    .insert(warmupMessages)
    .values(
      ids.map((id) => ({
        id: newId("wum"),
        workspaceId: to.workspaceId,
        fromMailboxId: peer.id,
        toMailboxId: to.id,
        toEmail: to.email,
        warmingMailboxId: peer.id,
        conversationId: id,
        messageId: `<${id}@sender.test>`,
        subject: "Catching up",
        bodyText: "Warmup says hello.",
        status: "SENT" as const,
        day: "2026-11-02",
      })),
    );
}

/** A workspace, a mailbox on the IMAP peer, campaigns, leads with a SENT campaign email each and ACTIVE campaign leads. */
async function world(user: User, spec: { email: string; campaign: "A" | "B" }[]) {
  const ws = await makeWorkspace();
  const mbx = await insertMailbox(ws.workspaceId, user, {
    imapHost: peers[user].host,
    imapPort: peers[user].port,
    imapSecurity: "NONE",
    imapUsername: user,
    imapPasswordEnc: encryptSecret(users[user]),
  });
  const cmp = { A: newId("cmp"), B: newId("cmp") };
  await getDb()
    .insert(campaigns)
    .values([
      { id: cmp.A, workspaceId: ws.workspaceId, name: "A", status: "ACTIVE", stopOnReply: true, stopOnAutoReply: false },
      { id: cmp.B, workspaceId: ws.workspaceId, name: "B", status: "ACTIVE", stopOnReply: true, stopOnAutoReply: true },
    ]);
  const lead: Record<string, { id: string; messageId: string; emailId: string; campaignId: string }> = {};
  for (const [n, s] of spec.entries()) {
    const id = newId("lead");
    await getDb().insert(leads).values({ id, workspaceId: ws.workspaceId, email: s.email });
    const emailId = newId("eml");
    const messageId = `<eml-${n}-${randomBytes(3).toString("hex")}@batch.test>`;
    await getDb()
      .insert(emails)
      .values({
        id: emailId,
        workspaceId: ws.workspaceId,
        mailboxId: mbx.id,
        leadId: id,
        leadEmail: s.email,
        campaignId: cmp[s.campaign],
        stepOrder: 0,
        messageId,
        subject: "Idea",
        status: "SENT",
        createdAt: new Date(clock.now().getTime() - (spec.length - n) * 60_000),
      });
    await getDb().insert(campaignLeads).values({
      workspaceId: ws.workspaceId,
      campaignId: cmp[s.campaign],
      leadId: id,
      mailboxId: mbx.id,
      status: "ACTIVE",
      nextStepOrder: 1,
    });
    lead[s.email] = { id, messageId, emailId, campaignId: cmp[s.campaign] };
  }
  return { ws, mbx, cmp, lead };
}

/** Counts imapflow's body downloads (UID FETCH with the full source) while `fn` runs. */
async function countBodyFetches<T>(fn: () => Promise<T>): Promise<{ result: T; bodyFetches: number; fetchedUids: number[] }> {
  const proto = ImapFlow.prototype as unknown as { fetch: (...a: unknown[]) => AsyncIterable<{ uid: number }> };
  const orig = proto.fetch;
  let bodyFetches = 0;
  const fetchedUids: number[] = [];
  proto.fetch = function (this: unknown, ...args: unknown[]) {
    const query = args[1] as { source?: boolean };
    if (query?.source) bodyFetches++;
    const it = orig.apply(this, args);
    if (!query?.source) return it;
    return (async function* () {
      for await (const m of it) {
        fetchedUids.push(m.uid);
        yield m;
      }
    })();
  };
  try {
    return { result: await fn(), bodyFetches, fetchedUids };
  } finally {
    proto.fetch = orig;
  }
}

describe("reply sync in batches", () => {
  it("reads every new message of a folder with one body FETCH and stores mixed kinds in one go, with each one's effects; a message the database refuses, a NUL byte or no sender lose nothing else", async () => {
    const { ws, mbx, cmp, lead } = await world("ann@batch.test", [
      { email: "keen@a-corp.test", campaign: "A" },
      { email: "asks@q-corp.test", campaign: "A" },
      { email: "boss@c-corp.test", campaign: "A" },
      { email: "ooo@b-corp.test", campaign: "B" },
      { email: "away@d-corp.test", campaign: "A" },
      { email: "Stop@E-corp.test", campaign: "A" },
      { email: "gone@f-corp.test", campaign: "A" },
    ]);
    await getDb().insert(campaignLeads).values({
      workspaceId: ws.workspaceId,
      campaignId: cmp.B,
      leadId: lead["Stop@E-corp.test"].id,
      mailboxId: mbx.id,
      status: "ACTIVE",
      nextStepOrder: 1,
    });
    const dsn = hardBounceReport({
      to: "ann@batch.test",
      messageId: "<dsn-1@f-corp.test>",
      recipient: "gone@f-corp.test",
      diagnostic: "550 5.1.1 No such user",
      original: lead["gone@f-corp.test"].messageId,
    });
    const tooLongId = `<${randomBytes(4000).toString("base64url")}@sender.test>`; // past what a btree index row may hold
    const uids = await append("ann@batch.test", [
      mail({
        id: "b1",
        from: "Kim <keen@a-corp.test>",
        body: "Sounds interesting, can we book a call?",
        inReplyTo: lead["keen@a-corp.test"].messageId,
      }),
      mail({ id: "b2", from: "asks@q-corp.test", body: "What does it cost?" }),
      mail({ id: "b3", from: "Jane <jane@c-corp.test>", body: "I handle this for Bob. Send me the details?" }),
      mail({
        id: "b4",
        from: "ooo@b-corp.test",
        subject: "Automatic reply: Idea",
        headers: ["Auto-Submitted: auto-replied"],
        body: "I am out of the office until Monday.",
      }),
      mail({ id: "b5", from: "away@d-corp.test", subject: "Out of Office: Idea", body: "Back next week." }),
      mail({ id: "b6", from: "stop@e-corp.test", body: "Please remove me from your list." }),
      dsn,
      mail({ id: tooLongId, from: "long@nowhere.test", body: "My Message-ID is too long to keep." }),
      mail({
        id: "b1",
        from: "Kim <keen@a-corp.test>",
        body: "The same message again (a duplicate).",
        inReplyTo: lead["keen@a-corp.test"].messageId,
      }),
      // NUL characters once decoded (an encoded-word subject, a base64 body): Postgres text refuses them.
      [
        "From: nul@nowhere.test",
        "To: ann@batch.test",
        `Subject: =?utf-8?B?${Buffer.from("Null\u0000byte").toString("base64")}?=`,
        "Message-ID: <b8@sender.test>",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: base64",
        "",
        Buffer.from("before\u0000after").toString("base64"),
        "",
      ].join("\n"),
      mail({ id: "b9", body: "Nobody signed this." }),
      mail({ id: "w1", from: "peer@warm.test", subject: "Quick question", body: "Warmup traffic." }),
      mail({ id: "b10", from: "someone@nowhere.test", subject: "Hello", body: "A stranger writes." }),
    ]);
    await recordWarmup(mbx, ["w1"]);
    const log = memoryLogger();
    const { result, bodyFetches, fetchedUids } = await countBodyFetches(() =>
      syncMailbox(systemCtx(undefined, { db: getDb(), clock, log }), mbx),
    );
    const warnings = log.lines.filter((l) => l.level === "warn").map((l) => l.message);

    expect(bodyFetches).toBe(1); // every wanted body of INBOX in one UID FETCH
    expect(fetchedUids).not.toContain(uids[11]); // the warmup message is not even downloaded
    expect(result).toEqual({ fetched: 12, stored: 9, bounces: 1, sent: 0 });
    expect(warnings).toEqual([expect.stringContaining(`UID ${uids[7]}: not stored (index row size`)]);

    const rows = await getDb().select().from(replies).where(eq(replies.mailboxId, mbx.id));
    const by = (id: string) => rows.filter((r) => r.messageId === `<${id}@sender.test>`);
    expect(rows).toHaveLength(9);
    expect(by("b1").map((r) => [r.leadId, r.intent, r.emailId, r.textBody.trim()])).toEqual([
      [lead["keen@a-corp.test"].id, "INTERESTED", lead["keen@a-corp.test"].emailId, "Sounds interesting, can we book a call?"],
    ]);
    expect(by("b2").map((r) => [r.leadId, r.intent])).toEqual([[lead["asks@q-corp.test"].id, "QUESTION"]]);
    expect(by("b3").map((r) => [r.leadId, r.from])).toEqual([[lead["boss@c-corp.test"].id, { name: "Jane", address: "jane@c-corp.test" }]]);
    expect(by("b4").map((r) => [r.leadId, r.intent, r.isAutoReply])).toEqual([[lead["ooo@b-corp.test"].id, "OUT_OF_OFFICE", true]]);
    expect(by("b5").map((r) => [r.leadId, r.intent, r.isAutoReply])).toEqual([[lead["away@d-corp.test"].id, "OUT_OF_OFFICE", true]]);
    expect(by("b6").map((r) => [r.leadId, r.intent])).toEqual([[lead["Stop@E-corp.test"].id, "UNSUBSCRIBE_REQUEST"]]);
    expect(by("b8").map((r) => [r.leadId, r.subject, r.textBody.trim()])).toEqual([[null, "Nullbyte", "beforeafter"]]);
    expect(by("b9").map((r) => [r.leadId, r.from])).toEqual([[null, null]]);
    expect(by("b10").map((r) => [r.leadId, r.intent])).toEqual([[null, "UNCLASSIFIED"]]);
    expect(rows.map((r) => r.messageId)).not.toContain("<w1@sender.test>");
    expect(rows.map((r) => r.messageId)).not.toContain("<dsn-1@f-corp.test>");
    expect(rows.every((r) => r.folder === "INBOX" && r.imapUid !== null)).toBe(true);

    const status = async (email: string, campaign: "A" | "B" = "A") =>
      (
        await getDb()
          .select()
          .from(campaignLeads)
          .where(and(eq(campaignLeads.campaignId, cmp[campaign]), eq(campaignLeads.leadId, lead[email].id)))
      )[0].status;
    expect(await status("keen@a-corp.test")).toBe("REPLIED");
    expect(await status("asks@q-corp.test")).toBe("REPLIED");
    expect(await status("boss@c-corp.test")).toBe("REPLIED"); // a colleague answering counts
    expect(await status("ooo@b-corp.test", "B")).toBe("REPLIED"); // campaign B stops on automatic replies
    expect(await status("away@d-corp.test")).toBe("ACTIVE"); // campaign A does not
    expect([await status("Stop@E-corp.test"), await status("Stop@E-corp.test", "B")]).toEqual(["UNSUBSCRIBED", "UNSUBSCRIBED"]);
    expect(await status("gone@f-corp.test")).toBe("BOUNCED");
    expect(
      (await getDb().select().from(suppressions).where(eq(suppressions.workspaceId, ws.workspaceId)))
        .map((s) => [s.value, s.reason])
        .sort(),
    ).toEqual([
      ["gone@f-corp.test", "hard_bounce"],
      ["stop@e-corp.test", "unsubscribe_reply"],
    ]);
    const [bounced] = await getDb().select().from(emails).where(eq(emails.id, lead["gone@f-corp.test"].emailId));
    expect([bounced.status, bounced.bounceType]).toEqual(["BOUNCED", "HARD"]);

    const evs = await getDb().select().from(events).where(eq(events.workspaceId, ws.workspaceId));
    const named = (n: string) => evs.filter((e) => e.event === n).map((e) => e.data);
    expect(named("email.replied")).toHaveLength(6); // b1..b6, once each (the duplicate changes nothing)
    expect(named("email.positive_reply")).toEqual([{ replyId: by("b1")[0].id, leadId: lead["keen@a-corp.test"].id }]);
    expect(named("lead.unsubscribed")).toEqual([
      { replyId: by("b6")[0].id, leadId: lead["Stop@E-corp.test"].id, leadEmail: "Stop@E-corp.test", source: "reply" },
    ]);
    expect(named("email.bounced")).toHaveLength(1);

    const [inbox] = await getDb()
      .select()
      .from(imapState)
      .where(and(eq(imapState.mailboxId, mbx.id), eq(imapState.folder, "INBOX")));
    expect(inbox.lastUid).toBe(uids.at(-1)); // past the refused and the warmup message: nothing is retried forever
    expect(await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), mbx)).toEqual({ fetched: 0, stored: 0, bounces: 0, sent: 0 });
  }, 60_000);

  it("keeps warmup traffic out of every folder it reads (INBOX, spam, Sent) without downloading it, and out of direct ingestion", async () => {
    const { mbx, lead } = await world("bo@batch.test", [{ email: "lee@warm-lead.test", campaign: "A" }]);
    const warm = (id: string, from: string, to = "Bo <bo@batch.test>") =>
      mail({ id, from, to, subject: "Re: Catching up", body: "Warmup says hello." });
    // Known by the Message-ID recorded when it was sent: even from a lead's address, the record wins.
    await recordWarmup(mbx, ["wi1", "wj1", "ws1", "wd1", "wd2"]);
    // A marker header hides nothing (warmup mail carries none): that message is a reply.
    const forged = mail({
      id: "forged1",
      from: "lee@warm-lead.test",
      body: "Trying to hide.",
      headers: ["X-Outreach-Warmup: abcdefgh.AAAAAAAAAAAAAAAAAAAAAA"],
    });
    const inbox = await append("bo@batch.test", [
      warm("wi1", "lee@warm-lead.test"),
      mail({ id: "real1", from: "lee@warm-lead.test", body: "A real answer?" }),
      forged,
    ]);
    const junk = await append("bo@batch.test", [warm("wj1", "peer@warm.test")], "Junk");
    const sent = await append("bo@batch.test", [warm("ws1", "Bo <bo@batch.test>", "lee@warm-lead.test")], "Sent");
    const { result, fetchedUids } = await countBodyFetches(() => syncMailbox(systemCtx(undefined, { db: getDb(), clock }), mbx));
    expect(result).toEqual({ fetched: 2, stored: 2, bounces: 0, sent: 0 }); // not counted, not stored, not unmatched
    expect(fetchedUids).toEqual([inbox[1], inbox[2]]);
    const rows = await getDb().select().from(replies).where(eq(replies.mailboxId, mbx.id));
    expect(rows.map((r) => [r.messageId, r.leadId]).sort()).toEqual([
      ["<forged1@sender.test>", lead["lee@warm-lead.test"].id],
      ["<real1@sender.test>", lead["lee@warm-lead.test"].id],
    ]);
    expect(await getDb().select().from(sentReplies).where(eq(sentReplies.mailboxId, mbx.id))).toEqual([]);
    const states = await getDb().select().from(imapState).where(eq(imapState.mailboxId, mbx.id));
    expect(Object.fromEntries(states.map((s) => [s.folder, s.lastUid]))).toEqual({ INBOX: inbox[2], Junk: junk[0], Sent: sent[0] });

    // Handed to ingestion directly (a parsed message), it is skipped as well.
    const mb = { id: mbx.id, workspaceId: mbx.workspaceId, email: mbx.email };
    expect(
      await ingestMessage(getDb(), clock, mb, await simpleParser(warm("wd1", "lee@warm-lead.test")), { folder: "INBOX" }),
    ).toBeUndefined();
    expect(
      await ingestOwnMessage(getDb(), clock, mb, await simpleParser(warm("wd2", "bo@batch.test", "lee@warm-lead.test"))),
    ).toBeUndefined();
    expect(await getDb().select().from(replies).where(eq(replies.mailboxId, mbx.id))).toHaveLength(2);
  }, 60_000);

  it("keeps whom a WRONG_PERSON reply refers to (address, name and sentence) on the reply, and nothing for other replies", async () => {
    const { mbx, lead } = await world("bo@batch.test", [
      { email: "wes@ref-lead.test", campaign: "A" },
      { email: "ivy@ref-lead.test", campaign: "A" },
    ]);
    const mb = { id: mbx.id, workspaceId: mbx.workspaceId, email: mbx.email };
    const ingest = async (id: string, from: string, body: string) =>
      (await ingestMessage(getDb(), clock, mb, await simpleParser(mail({ id, from, body, to: "Bo <bo@batch.test>" })), {
        folder: "INBOX",
      }))!;
    const referralOf = async (replyId: string) => (await getDb().select().from(replies).where(eq(replies.id, replyId)))[0].referral;

    const byAddress = await ingest("ref1", "wes@ref-lead.test", "I'm not the right person, please reach out to jane.doe@acme.test");
    expect(byAddress.intent).toBe("WRONG_PERSON");
    expect(await referralOf(byAddress.replyId)).toEqual({
      email: "jane.doe@acme.test",
      text: "I'm not the right person, please reach out to jane.doe@acme.test",
    });
    const byName = await ingest("ref2", "ivy@ref-lead.test", "Wrong person, sorry. Our head of sales is Jane Doe.");
    expect(byName.intent).toBe("WRONG_PERSON");
    expect(await referralOf(byName.replyId)).toEqual({ name: "Jane Doe", text: "Our head of sales is Jane Doe." });
    // The sender's own address is never a referral; a wrong-person reply that names nobody keeps none.
    const nobody = await ingest("ref3", "wes@ref-lead.test", "I'm not the right person. Write to wes@ref-lead.test if you must.");
    expect(nobody.intent).toBe("WRONG_PERSON");
    expect(await referralOf(nobody.replyId)).toBeNull();
    // Only WRONG_PERSON replies get one.
    const keen = await ingest("ref4", "ivy@ref-lead.test", "Sounds great, let's talk! Copy my assistant amy@ref-lead.test please.");
    expect(keen.intent).toBe("INTERESTED");
    expect(await referralOf(keen.replyId)).toBeNull();
    expect(lead["wes@ref-lead.test"].id).toBe(byAddress.leadId);
  }, 60_000);

  it(`takes a long backlog in batches of ${BATCH_MESSAGES}: one body FETCH and one write per batch, everything kept`, async () => {
    const { mbx } = await world("cy@batch.test", []);
    const n = BATCH_MESSAGES + 5;
    const uids = await append(
      "cy@batch.test",
      Array.from({ length: n }, (_, i) => mail({ id: `bulk-${i}`, from: `p${i}@bulk.test`, subject: `Hello ${i}`, body: `Message ${i}` })),
    );
    const { result, bodyFetches } = await countBodyFetches(() => syncMailbox(systemCtx(undefined, { db: getDb(), clock }), mbx));
    expect(result).toEqual({ fetched: n, stored: n, bounces: 0, sent: 0 });
    expect(bodyFetches).toBe(2);
    const rows = await getDb().select({ uid: replies.imapUid }).from(replies).where(eq(replies.mailboxId, mbx.id));
    expect(rows.map((r) => r.uid).sort((a, b) => a! - b!)).toEqual(uids);
    const [state] = await getDb()
      .select()
      .from(imapState)
      .where(and(eq(imapState.mailboxId, mbx.id), inArray(imapState.folder, ["INBOX"])));
    expect(state.lastUid).toBe(uids.at(-1));
  }, 60_000);
});
