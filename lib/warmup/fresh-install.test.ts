import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { warmupMessages } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { type MailNetwork, startMailNetwork } from "@/test/peers/mail-network";
import { killWorker, startWorker } from "@/test/worker";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { GET as ONE } from "@/app/api/v1/mailboxes/[id]/route";
import { POST as START } from "@/app/api/v1/mailboxes/[id]/start-warmup/route";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { GET as REPLIES } from "@/app/api/v1/replies/route";
import { GET as UNMATCHED } from "@/app/api/v1/replies/unmatched/route";
import { GET as THREADS } from "@/app/api/v1/replies/threads/route";
import { GET as UNREAD } from "@/app/api/v1/replies/unread-count/route";
import { GET as OVERVIEW } from "@/app/api/v1/analytics/overview/route";
import { GET as MAILBOX_STATS } from "@/app/api/v1/analytics/mailbox-stats/route";
import { GET as TIMESERIES } from "@/app/api/v1/analytics/timeseries/route";
import { GET as ANALYTICS_MAILBOXES } from "@/app/api/v1/analytics/mailboxes/route";
import { GET as ANALYTICS_CSV } from "@/app/api/v1/reports/analytics.csv/route";

/**
 * A fresh install, end to end: two mailboxes connected through the API (PUT by-email, their
 * provider's servers named in MAIL_PROVIDERS_FILE), warmup started through the API, and the real worker
 * sidecar (`outreach worker`) doing the rest — sending on the spread, reading over IMAP with the inbox
 * sync, rescuing from spam, answering. Warmup mail flows both ways and nothing of it reaches the inbox,
 * the unmatched list, stats, analytics or reports — even though one partner is also a lead.
 */
const ANN = "ann@alpha.test";
const BOB = "bob@bravo.test";
const TARGET = 3;
let net: MailNetwork;
let ws: TestWorkspace;
const id: Record<string, string> = {};
const savedProviders = process.env.MAIL_PROVIDERS_FILE;

beforeAll(async () => {
  net = await startMailNetwork({
    accounts: { [ANN]: "pw-ann", [BOB]: "pw-bob" },
    // Bob's provider files everything in Junk.
    junk: (to) => to === BOB,
  });
  const server = (email: string) => ({
    smtpHost: "127.0.0.1",
    smtpPort: net.smtp.port,
    smtpSecurity: "NONE",
    imapHost: "127.0.0.1",
    imapPort: net.account(email).imap.port,
    imapSecurity: "NONE",
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "warmup-fresh-")), "providers.json");
  writeFileSync(file, JSON.stringify({ "alpha.test": server(ANN), "bravo.test": server(BOB) }));
  process.env.MAIL_PROVIDERS_FILE = file;
  ws = await makeWorkspace();
  for (const [email, pw] of [
    [ANN, "pw-ann"],
    [BOB, "pw-bob"],
  ]) {
    const r = await call(CONNECT, "PUT", `/mailboxes/by-email/${encodeURIComponent(email)}`, {
      key: ws.fullKey,
      params: { email },
      body: { appPassword: pw },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    id[email] = r.body.id;
  }
  // Bob is also a lead: were warmup mail taken for mail, his would be a lead's reply.
  const lead = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: BOB, firstName: "Bob" }] } });
  expect(lead.status).toBeLessThan(300);
  for (const email of [ANN, BOB]) {
    const r = await call(START, "POST", `/mailboxes/${id[email]}/start-warmup`, {
      key: ws.fullKey,
      params: { id: id[email] },
      body: { startingVolume: TARGET, replyRateMinPct: 100, replyRateMaxPct: 100 },
    });
    expect(r.status).toBe(200);
    expect(r.body.warmupStatus).toBe("EARLY");
  }
}, 60_000);
afterAll(async () => {
  if (savedProviders === undefined) delete process.env.MAIL_PROVIDERS_FILE;
  else process.env.MAIL_PROVIDERS_FILE = savedProviders;
  await net?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = () => getDb().select().from(warmupMessages).where(eq(warmupMessages.workspaceId, ws.workspaceId));
async function until(what: string, done: (r: Awaited<ReturnType<typeof rows>>) => boolean, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await rows();
    if (done(r)) return r;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(r.map((x) => [x.depth, x.status, !!x.receivedAt]))}`);
    await sleep(200);
  }
}
const get = (handler: Parameters<typeof call>[0], p: string) => call(handler, "GET", p, { key: ws.fullKey });

describe("a fresh install: two mailboxes connected, warmup started, the worker running", () => {
  it("warmup mail flows between them over SMTP and IMAP, is rescued from spam and answered, and none of it shows in the inbox, stats, analytics or reports", async () => {
    // The worker as `npm start` runs it, with the day's volume spread over 3 seconds and mailboxes read every second.
    const worker = startWorker({
      WARMUP_SPREAD_S: "3",
      IMAP_POLL_INTERVAL_S: "1",
      MAIL_PROVIDERS_FILE: process.env.MAIL_PROVIDERS_FILE ?? "",
    });
    try {
      const first = (
        await until(
          "each mailbox's first emails, sent and read by the other",
          (r) => r.filter((x) => x.depth === 0 && x.status === "SENT" && x.receivedAt).length === 2 * TARGET,
        )
      ).filter((x) => x.depth === 0);
      for (const [from, to] of [
        [ANN, BOB],
        [BOB, ANN],
      ])
        expect(
          first.filter((x) => x.fromMailboxId === id[from] && x.toMailboxId === id[to]),
          `${from} → ${to}`,
        ).toHaveLength(TARGET);
      // Real mail through the SMTP server, each once.
      expect(
        net.delivered
          .map((d) => d.messageId)
          .filter((m) => first.some((x) => x.messageId === m))
          .sort(),
      ).toEqual(first.map((x) => x.messageId).sort());
      expect(new Set(net.delivered.map((d) => d.messageId)).size).toBe(net.delivered.length);
      // Bob's copies landed in Junk and were moved to INBOX; every copy is seen and flagged.
      expect(first.filter((x) => x.toMailboxId === id[BOB]).every((x) => x.receivedFolder === "Junk" && x.rescuedFromSpam)).toBe(true);
      expect(net.account(BOB).folder("Junk")).toHaveLength(0);
      for (const email of [ANN, BOB]) {
        const inbox = net.account(email).folder("INBOX");
        expect(inbox).toHaveLength(TARGET);
        for (const m of inbox) expect(m.flags).toEqual(expect.arrayContaining(["\\Seen", "\\Flagged"]));
      }
      // At a 100 % reply rate every first email has an answer planned minutes later; move them due now instead of waiting.
      await until("the planned answers", (r) => r.filter((x) => x.depth === 1).length === 2 * TARGET);
      await getDb()
        .update(warmupMessages)
        .set({ dueAt: sql`now()` })
        .where(and(eq(warmupMessages.workspaceId, ws.workspaceId), eq(warmupMessages.status, "PLANNED")));
      const answered = await until("the answers, sent and read", (r) => {
        const a = r.filter((x) => x.depth === 1);
        return a.length === 2 * TARGET && a.every((x) => x.status === "SENT" && x.receivedAt);
      });
      for (const a of answered.filter((x) => x.depth === 1)) {
        const parent = answered.find((x) => x.messageId === a.inReplyTo)!;
        expect(a.fromMailboxId).toBe(parent.toMailboxId);
        expect(a.subject).toBe(`Re: ${parent.subject}`);
      }
      // Let the sync pass over the mailboxes once more after the last answer was read.
      await sleep(2_500);
    } finally {
      await killWorker(worker);
    }

    // Nothing of it in the inbox or the unmatched list.
    expect((await get(REPLIES, "/replies")).body).toMatchObject({ replies: [], total: 0 });
    expect((await get(UNMATCHED, "/replies/unmatched")).body).toMatchObject({ replies: [], total: 0 });
    expect((await get(THREADS, "/replies/threads")).body).toMatchObject({ threads: [], total: 0 });
    expect((await get(UNREAD, "/replies/unread-count")).body).toEqual({ messages: 0, conversations: 0 });
    // Nor in stats, analytics or reports.
    const overview = (await get(OVERVIEW, "/analytics/overview?days=1")).body;
    expect(overview).toMatchObject({ totalSent: 0, leadsContacted: 0, totalReplied: 0, totalBounced: 0, totalMailboxes: 2 });
    const stats = (await get(MAILBOX_STATS, "/analytics/mailbox-stats?days=1")).body;
    expect(stats.mailboxes).toHaveLength(2);
    for (const m of stats.mailboxes) {
      expect(m, m.emailAddress).toMatchObject({ sent: 0, replied: 0, leadsContacted: 0, sentLast7Days: 0, lastSentAt: null });
      // Campaign sending is on and only warmup mail went out: no campaign email in 7 days.
      expect(m.activity).toBe("inactive");
    }
    const series = (await get(TIMESERIES, "/analytics/timeseries?days=1")).body;
    expect(series.days.every((d: Record<string, number>) => d.sent === 0 && d.replied === 0)).toBe(true);
    for (const m of (await get(ANALYTICS_MAILBOXES, "/analytics/mailboxes")).body.mailboxes)
      expect(m).toMatchObject({ sentToday: 0, sent30d: 0 });
    const csv = await get(ANALYTICS_CSV, "/reports/analytics.csv?days=1");
    expect(csv.status).toBe(200);
    const total = String(csv.body)
      .trim()
      .split("\n")
      .find((l) => l.startsWith("total,"))!;
    expect(total.split(",").slice(1, 8)).toEqual(["0", "0", "0", "0", "0", "0", "0"]);
    // The mailbox rows show the warmup: the day's target sent, every email answered.
    for (const email of [ANN, BOB]) {
      const row = (await call(ONE, "GET", `/mailboxes/${id[email]}`, { key: ws.fullKey, params: { id: id[email] } })).body;
      expect(row.warmup, email).toMatchObject({ dayIndex: 0, todayTarget: TARGET, sentToday: TARGET, repliedToday: TARGET });
    }
  }, 180_000);
});
