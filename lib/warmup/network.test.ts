import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events, mailboxes, replies, warmupMessages } from "@/db/schema";
import { ManualClock, useClock, systemClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { syncMailbox } from "@/lib/inbox/sync";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { type MailNetwork, startMailNetwork } from "@/test/peers/mail-network";
import { POST as IMPORT } from "@/app/api/v1/mailboxes/bulk-import/route";
import { POST as START } from "@/app/api/v1/mailboxes/[id]/start-warmup/route";
import { runWarmup } from "./job";
import { MAX_DEPTH } from "./receive";

const ACCOUNTS = ["ann@net.test", "bob@net.test", "cat@net.test", "dan@net.test", "eve@net.test", "seed@net.test"];
let net: MailNetwork;
let ws: TestWorkspace;
let other: TestWorkspace;
const id: Record<string, string> = {};
const T0 = new Date("2026-11-02T08:00:00Z");
const clock = new ManualClock(T0);

beforeAll(async () => {
  process.env.WARMUP_SPREAD_S = "600";
  net = await startMailNetwork({
    accounts: Object.fromEntries(ACCOUNTS.map((a) => [a, `pw-${a}`])),
    // The spam filter of bob's provider files everything in Junk.
    junk: (to) => to === "bob@net.test",
  });
  ws = await makeWorkspace();
  other = await makeWorkspace();
  const imported = await call(IMPORT, "POST", "/mailboxes/bulk-import", {
    key: ws.fullKey,
    body: {
      mailboxes: [
        // A campaign cap below its warmup day: warmup volume is separate from dailySendCap.
        net.importItem("ann@net.test", { dailySendCap: 2 }),
        net.importItem("bob@net.test"),
        net.importItem("cat@net.test"),
        net.importItem("dan@net.test", { warmupGroup: "agency-b" }),
        net.importItem("seed@net.test", { isSeed: true }),
      ],
    },
  });
  expect(imported.body.failed).toEqual([]);
  const theirs = await call(IMPORT, "POST", "/mailboxes/bulk-import", {
    key: other.fullKey,
    body: { mailboxes: [net.importItem("eve@net.test")] },
  });
  for (const m of [...imported.body.mailboxes, ...theirs.body.mailboxes]) id[m.email] = m.id;
  useClock(clock);
  for (const [email, key] of [
    ["ann@net.test", ws.fullKey],
    ["bob@net.test", ws.fullKey],
    ["cat@net.test", ws.fullKey],
    ["dan@net.test", ws.fullKey],
    ["eve@net.test", other.fullKey],
  ] as const) {
    const r = await call(START, "POST", `/mailboxes/${id[email]}/start-warmup`, {
      key,
      params: { id: id[email] },
      body: { startingVolume: 10, replyRateMinPct: 30, replyRateMaxPct: 30 },
    });
    expect(r.status).toBe(200);
  }
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  delete process.env.WARMUP_SPREAD_S;
  await net?.close();
});

const job = () => runWarmup(systemCtx(undefined, { db: getDb(), clock }));
const rows = () =>
  getDb()
    .select()
    .from(warmupMessages)
    .where(inArray(warmupMessages.workspaceId, [ws.workspaceId, other.workspaceId]));
async function syncAll() {
  const all = await getDb()
    .select()
    .from(mailboxes)
    .where(inArray(mailboxes.id, Object.values(id)));
  for (const m of all) await syncMailbox(systemCtx(undefined, { db: getDb(), clock }), m);
}

describe("the warmup network over real SMTP and IMAP", () => {
  it("sends each mailbox's day spread over WARMUP_SPREAD_S to partners of its workspace and group only; receivers rescue it from spam and answer at the reply rate, threaded; nothing reaches the inbox", async () => {
    // The day's first tick starts the spread: 10 emails over 600 s, one every 60 s.
    for (let s = 0; s <= 660; s += 30) {
      await job();
      clock.advance(30_000);
    }
    const sent = await rows();
    const first = sent.filter((r) => r.depth === 0);
    const by = (email: string) => first.filter((r) => r.fromMailboxId === id[email]);
    for (const email of ["ann@net.test", "bob@net.test", "cat@net.test"]) {
      expect(by(email), email).toHaveLength(10); // ann's too, above its dailySendCap of 2
      // Spread: the first at the day's first tick, the last about 9 × 60 s later — not all at once.
      const times = by(email)
        .map((r) => r.createdAt.getTime())
        .sort((a, b) => a - b);
      expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual(9 * 60_000 - 30_000);
      // Partners: the other two of the default network, or the workspace's seed; never itself, dan (another group) or eve (another workspace).
      const to = new Set(by(email).map((r) => r.toEmail));
      for (const t of to) expect(["ann@net.test", "bob@net.test", "cat@net.test", "seed@net.test"].filter((x) => x !== email)).toContain(t);
    }
    // dan warms in a group of its own: only with the workspace's seed. eve's workspace has no partner: nothing sent.
    expect(new Set(by("dan@net.test").map((r) => r.toEmail))).toEqual(new Set(["seed@net.test"]));
    expect(by("eve@net.test")).toHaveLength(0);
    expect(sent.every((r) => r.status === "SENT")).toBe(true);
    // Real mail, no marker: the SMTP peer delivered each once, with nothing a filter could key on.
    expect(net.delivered.map((d) => d.messageId).sort()).toEqual(first.map((r) => r.messageId).sort());
    for (const d of net.delivered) expect(d.raw).not.toMatch(/x-outreach|warmup|list-unsubscribe|<img/i);
    expect(new Set(first.map((r) => r.subject)).size).toBeGreaterThan(3);

    await syncAll();
    const received = (await rows()).filter((r) => r.depth === 0);
    expect(received.every((r) => r.receivedAt !== null)).toBe(true);
    // Everything to bob landed in Junk and was moved to INBOX, seen and flagged.
    const toBob = received.filter((r) => r.toEmail === "bob@net.test");
    expect(toBob.length).toBeGreaterThan(0);
    expect(toBob.every((r) => r.receivedFolder === "Junk" && r.rescuedFromSpam)).toBe(true);
    expect(net.account("bob@net.test").folder("Junk")).toHaveLength(0);
    const bobInbox = net.account("bob@net.test").folder("INBOX");
    expect(bobInbox).toHaveLength(toBob.length);
    for (const m of bobInbox) expect(m.flags).toEqual(expect.arrayContaining(["\\Seen", "\\Flagged"]));
    // Answered at the warming mailbox's 30 %: 3 of its 10 first emails, decided once each.
    for (const email of ["ann@net.test", "bob@net.test", "cat@net.test", "dan@net.test"])
      expect(received.filter((r) => r.warmingMailboxId === id[email] && r.answered).length, email).toBe(3);
    // The answers go out a few minutes later, threaded, from the mailbox that received the email.
    clock.advance(30 * 60_000);
    await job();
    const answers = (await rows()).filter((r) => r.depth === 1);
    expect(answers).toHaveLength(12);
    expect(answers.every((a) => a.status === "SENT")).toBe(true);
    for (const a of answers) {
      const parent = received.find((r) => r.messageId === a.inReplyTo)!;
      expect(parent.toMailboxId).toBe(a.fromMailboxId);
      expect(a.toMailboxId).toBe(parent.fromMailboxId);
      expect(a.subject).toBe(`Re: ${parent.subject}`);
      const raw = net.delivered.find((d) => d.messageId === a.messageId)!.raw;
      expect(raw).toContain(`In-Reply-To: ${parent.messageId}`);
    }
    await syncAll();
    // Conversations go deeper: about half the answers are answered in turn, up to four messages
    // (depth MAX_DEPTH), each threaded on the whole chain, between the same two mailboxes.
    for (let i = 0; i < 3; i++) {
      clock.advance(30 * 60_000);
      await job();
      await syncAll();
    }
    const all = await rows();
    expect(all.filter((r) => r.depth >= 2).length).toBeGreaterThan(0);
    expect(Math.max(...all.map((r) => r.depth))).toBeLessThanOrEqual(MAX_DEPTH);
    for (const r of all.filter((x) => x.depth > 0)) {
      const parent = all.find((x) => x.messageId === r.inReplyTo)!;
      expect(r.depth).toBe(parent.depth + 1);
      expect(r.conversationId).toBe(parent.conversationId);
      expect(r.references).toEqual([...parent.references, parent.messageId]);
      expect([r.fromMailboxId, r.toMailboxId]).toEqual([parent.toMailboxId, parent.fromMailboxId]);
      if (r.status === "SENT") expect(net.delivered.find((d) => d.messageId === r.messageId)!.raw).toContain(parent.messageId);
    }
    // Nothing of it in the inbox: no reply rows, no events but warmup's own.
    expect(
      await getDb()
        .select()
        .from(replies)
        .where(inArray(replies.workspaceId, [ws.workspaceId, other.workspaceId])),
    ).toEqual([]);
    const kinds = new Set((await getDb().select().from(events).where(eq(events.workspaceId, ws.workspaceId))).map((e) => e.event));
    expect([...kinds]).toEqual(["warmup.status_changed"]);
    // The mailbox row shows today's counts: 10 sent by ann in her conversations, 3 answers received.
    const [ann] = await getDb()
      .select()
      .from(warmupMessages)
      .where(and(eq(warmupMessages.warmingMailboxId, id["ann@net.test"]), eq(warmupMessages.depth, 1)));
    expect(ann.toMailboxId).toBe(id["ann@net.test"]);
  }, 120_000);
});
