import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import {
  blacklistJobs,
  blacklistResults,
  domains,
  emails,
  mailboxWarmups,
  placementResults,
  placementTests,
  warmupDays,
  warmupMessages,
} from "@/db/schema";
import { GET as ANALYTICS } from "@/app/api/v1/analytics/mailboxes/route";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { raiseAlert, resolveAlert } from "@/lib/alerts/alerts";
import { ensureDomain } from "@/lib/domains/ensure-domain";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { GET as ALERTS } from "./alerts/route";
import { POST as ACK } from "./alerts/[id]/ack/route";
import { GET as MAILBOX } from "./mailboxes/[id]/route";
import { GET as OVERVIEW } from "./overview/route";

/** The deliverability read routes against rows written straight to the database, so every number is known. */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
const now = () => clock.now();
const ago = (ms: number) => new Date(now().getTime() - ms);
let ws: TestWorkspace;
let other: TestWorkspace;
const ids: Record<string, string> = {};

async function seedMailboxes() {
  const at = (local: string, over = {}) => insertMailbox(ws.workspaceId, `${local}@a.test`, over);
  ids.m1 = (await at("m1", { warmupStatus: "EARLY" })).id;
  ids.m2 = (await at("m2", { warmupStatus: "RAMPING" })).id;
  await at("paused", { sendingEnabled: false });
  await at("auto", { autoPausedAt: ago(DAY), autoPauseReason: "bounces" });
  await at("login", { loginFailingSince: ago(MIN), loginError: "535" });
  await at("read-new", { readFailingSince: ago(10 * MIN) }); // not READ_FAILING before 30 minutes: healthy
  await at("read-old", { readFailingSince: ago(40 * MIN) });
  await at("unchecked", { lastCheckedAt: null, warmupStatus: "STEADY" });
  await getDb()
    .insert(domains)
    .values([
      { id: newId("dom"), workspaceId: ws.workspaceId, domain: "b.test", spfStatus: "FAIL" },
      { id: newId("dom"), workspaceId: ws.workspaceId, domain: "c.test", blacklistStatus: "FAIL" },
      { id: newId("dom"), workspaceId: ws.workspaceId, domain: "d.test" },
    ]);
}

function email(mailboxId: string, status: "SENT" | "BOUNCED" | "FAILED" | "SENDING", createdAt: Date, campaignId: string | null = "cmp_1") {
  const id = newId("eml");
  return {
    id,
    workspaceId: ws.workspaceId,
    mailboxId,
    leadEmail: `${id}@x.test`,
    campaignId,
    messageId: `<${id}@a.test>`,
    subject: "Hi",
    status,
    createdAt,
  };
}

async function seedEmails() {
  const today = ago(MIN);
  await getDb()
    .insert(emails)
    .values([
      ...Array.from({ length: 8 }, () => email(ids.m1, "SENT", today)),
      email(ids.m1, "BOUNCED", today),
      email(ids.m1, "BOUNCED", today),
      email(ids.m1, "FAILED", today), // refused at send time: no bounce, not sent
      email(ids.m1, "BOUNCED", ago(8 * DAY)), // outside 7 days, inside 30
      email(ids.m1, "SENT", today, null), // not a campaign email
    ]);
}

async function seedPlacements() {
  const test = (createdAt: Date) => ({
    id: newId("plt"),
    workspaceId: ws.workspaceId,
    batchId: newId("plb"),
    mailboxId: ids.m1,
    status: "COMPLETED" as const,
    subject: "probe",
    bodyText: "probe",
    deadlineAt: createdAt,
    createdAt,
  });
  const old = test(ago(40 * DAY));
  const recent = { ...test(ago(2 * DAY)), seedCount: 6, inboxCount: 3, spamCount: 1, missingCount: 2 };
  ids.placement = recent.id;
  await getDb().insert(placementTests).values([old, recent]);
  const result = (testId: string, placement: "INBOX" | "SPAM" | "MISSING") => ({
    id: newId("plr"),
    testId,
    seedEmail: "seed@s.test",
    provider: "GOOGLE",
    messageId: `<${newId("plr")}@a.test>`,
    placement,
  });
  await getDb()
    .insert(placementResults)
    .values([
      ...Array.from({ length: 5 }, () => result(old.id, "SPAM")),
      ...(["INBOX", "INBOX", "INBOX", "SPAM", "MISSING", "MISSING"] as const).map((p) => result(recent.id, p)),
    ]);
}

async function seedAlerts() {
  const raise = (kind: "LOGIN_FAILING" | "BLACKLISTED" | "DNS_FAILING", subject: string, over = {}) =>
    raiseAlert(getDb(), { workspaceId: ws.workspaceId, kind, subject, message: `${kind} ${subject}`, ...over }, now());
  await raise("DNS_FAILING", "b.test", { domain: "b.test" });
  clock.advance(1000);
  await raise("BLACKLISTED", "d.test", { domain: "d.test" });
  clock.advance(1000);
  await raise("LOGIN_FAILING", ids.m1, { mailboxId: ids.m1 });
  clock.advance(1000);
  await raise("BLACKLISTED", "192.0.2.5", { domain: "a.test" });
  clock.advance(1000);
  await raise("DNS_FAILING", "c.test", { domain: "c.test" });
  await resolveAlert(getDb(), ws.workspaceId, "DNS_FAILING", "c.test", now());
}

beforeAll(async () => {
  useClock(clock);
  ws = await makeWorkspace();
  other = await makeWorkspace();
  await seedMailboxes();
  await seedEmails();
  await seedPlacements();
  await seedAlerts();
});
afterAll(() => useClock(systemClock));

describe("GET /deliverability/overview", () => {
  it("counts mailboxes, domains, rates, open alerts and the last placement test from the workspace's rows", async () => {
    const r = await call(OVERVIEW, "GET", "/deliverability/overview", { key: ws.readKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      mailboxes: { total: 8, healthy: 3, warming: 3, paused: 2, failing: 2 },
      // c.test by its last check; d.test and a.test (its address 192.0.2.5) by open BLACKLISTED alerts
      domains: { total: 4, failing: 1, blacklisted: 3 },
      bounceRate7d: 0.2, // 2 bounced of 10 campaign emails sent in 7 days
      spamRate30d: 0.25, // 1 spam of 4 placed (inbox + spam) in 30 days; the older test is left out
      openAlerts: 4,
      unacknowledgedAlerts: 4,
      lastPlacement: expect.objectContaining({
        id: ids.placement,
        mailboxEmail: "m1@a.test",
        inboxCount: 3,
        spamCount: 1,
        missingCount: 2,
      }),
    });
  });

  it("has nulls for rates without data and no placement for a new workspace", async () => {
    const r = await call(OVERVIEW, "GET", "/deliverability/overview", { key: other.readKey });
    expect(r.body).toMatchObject({ bounceRate7d: null, spamRate30d: null, lastPlacement: null, openAlerts: 0 });
  });
});

describe("alerts", () => {
  it("lists alerts newest first, filtered by acknowledged and open", async () => {
    const all = (await call(ALERTS, "GET", "/deliverability/alerts", { key: ws.readKey })).body;
    expect(all.total).toBe(5);
    expect(all.alerts.map((a: any) => a.subject)).toEqual(["c.test", "192.0.2.5", ids.m1, "d.test", "b.test"]);
    const open = (await call(ALERTS, "GET", "/deliverability/alerts?open=true&limit=2&page=2", { key: ws.readKey })).body;
    expect(open).toMatchObject({ page: 2, limit: 2, total: 4 });
    expect(open.alerts.map((a: any) => a.subject)).toEqual(["d.test", "b.test"]);
    expect(all.alerts[2]).toEqual({
      id: expect.stringMatching(/^alr_/),
      kind: "LOGIN_FAILING",
      severity: "critical",
      subject: ids.m1,
      mailboxId: ids.m1,
      domain: null,
      message: `LOGIN_FAILING ${ids.m1}`,
      details: {},
      createdAt: expect.any(String),
      acknowledgedAt: null,
      resolvedAt: null,
    });
  });

  it("acknowledges an alert once (the first time is kept) and filters it out of ?acknowledged=false", async () => {
    const list = (await call(ALERTS, "GET", "/deliverability/alerts?kind=BLACKLISTED", { key: ws.readKey })).body;
    const target = list.alerts.find((a: any) => a.subject === "d.test");
    const first = await call(ACK, "POST", "", { key: ws.fullKey, params: { id: target.id } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: target.id, acknowledgedAt: now().toISOString(), resolvedAt: null });
    clock.advance(MIN);
    const again = await call(ACK, "POST", "", { key: ws.fullKey, params: { id: target.id } });
    expect(again.body.acknowledgedAt).toBe(first.body.acknowledgedAt);
    const unacked = (await call(ALERTS, "GET", "/deliverability/alerts?acknowledged=false&open=true", { key: ws.readKey })).body;
    expect(unacked.alerts.map((a: any) => a.subject)).toEqual(["192.0.2.5", ids.m1, "b.test"]);
    const overview = (await call(OVERVIEW, "GET", "/deliverability/overview", { key: ws.readKey })).body;
    expect([overview.openAlerts, overview.unacknowledgedAlerts]).toEqual([4, 3]);
  });

  it("answers 404 for another workspace's alert, 403 for a read-only key, 400 for a bad filter", async () => {
    const [a] = (await call(ALERTS, "GET", "/deliverability/alerts", { key: ws.readKey })).body.alerts;
    const r = await call(ACK, "POST", "", { key: other.fullKey, params: { id: a.id } });
    expect([r.status, r.body.code]).toEqual([404, "NOT_FOUND"]);
    const ro = await call(ACK, "POST", "", { key: ws.readKey, params: { id: a.id } });
    expect([ro.status, ro.body.code]).toEqual([403, "FORBIDDEN"]);
    const bad = await call(ALERTS, "GET", "/deliverability/alerts?acknowledged=maybe&limit=500", { key: ws.readKey });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details.fieldErrors).sort()).toEqual(["acknowledged", "limit"]);
    expect((await call(ALERTS, "GET", "/deliverability/alerts", { key: other.readKey })).body.total).toBe(0);
  });
});

async function seedWarmup() {
  const today = now().toISOString().slice(0, 10);
  const yesterday = ago(DAY).toISOString().slice(0, 10);
  await getDb()
    .insert(mailboxWarmups)
    .values({
      mailboxId: ids.m1,
      workspaceId: ws.workspaceId,
      dayIndex: 3,
      startingVolume: 10,
      dailyIncrease: 5,
      targetVolume: 40,
      replyRateMinPct: 25,
      replyRateMaxPct: 35,
      startedAt: ago(3 * DAY),
    });
  await getDb()
    .insert(warmupDays)
    .values([
      { mailboxId: ids.m1, day: yesterday, dayIndex: 2, target: 20 },
      { mailboxId: ids.m1, day: today, dayIndex: 3, target: 25 },
    ]);
  const msg = (
    from: string,
    to: string,
    warming: string,
    depth: number,
    status: "SENT" | "SENDING" | "FAILED",
    day: string,
    receivedAt?: Date,
  ) => ({
    id: newId("wum"),
    workspaceId: ws.workspaceId,
    fromMailboxId: from,
    toMailboxId: to,
    toEmail: "x@a.test",
    warmingMailboxId: warming,
    conversationId: newId("wum"),
    depth,
    messageId: `<${newId("wum")}@a.test>`,
    subject: "hello",
    bodyText: "hello",
    status,
    day,
    sentAt: new Date(`${day}T08:00:00Z`),
    receivedAt: receivedAt ?? null,
  });
  await getDb()
    .insert(warmupMessages)
    .values([
      msg(ids.m1, ids.m2, ids.m1, 0, "SENT", today),
      msg(ids.m1, ids.m2, ids.m1, 0, "SENT", today),
      msg(ids.m1, ids.m2, ids.m1, 0, "SENDING", today),
      msg(ids.m1, ids.m2, ids.m1, 0, "FAILED", today),
      msg(ids.m1, ids.m2, ids.m1, 0, "SENT", yesterday),
      msg(ids.m2, ids.m1, ids.m1, 1, "SENT", today, ago(MIN)), // an answer to m1's ramp
      msg(ids.m2, ids.m1, ids.m2, 2, "SENT", today, ago(MIN)), // m2's conversation: not m1's reply
    ]);
}

describe("GET /deliverability/mailboxes/<id>", () => {
  it("reports health, warmup with its 30-day series, bounce rate, placements, blacklist hits and open alerts", async () => {
    await seedWarmup();
    const job = newId("blj");
    const targets = [
      { target: "a.test", type: "domain" as const, sendingDomain: "a.test" },
      { target: "192.0.2.5", type: "ip" as const, sendingDomain: "a.test" },
      { target: "192.0.2.6", type: "ip" as const },
    ];
    await getDb().insert(blacklistJobs).values({ id: job, workspaceId: ws.workspaceId, status: "COMPLETED", targets, total: 3, done: 3 });
    const res = (target: string, type: "domain" | "ip", listed: boolean) => ({
      jobId: job,
      target,
      type,
      zone: "zen.test",
      listed,
      answer: listed ? "127.0.0.2" : null,
    });
    await getDb()
      .insert(blacklistResults)
      .values([res("a.test", "domain", false), res("192.0.2.5", "ip", true), res("192.0.2.6", "ip", true)]);
    const r = await call(MAILBOX, "GET", "", { key: ws.readKey, params: { id: ids.m1 } });
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.mailbox).toMatchObject({ email: "m1@a.test", domain: "a.test" });
    expect(b.health.status).toBe("HEALTHY");
    expect(b.warmup).toMatchObject({ dayIndex: 3, todayTarget: 25, sentToday: 3, repliedToday: 1, pausedAt: null });
    expect(b.warmup.daily).toHaveLength(30);
    expect(b.warmup.daily.slice(-2)).toEqual([
      { date: ago(DAY).toISOString().slice(0, 10), target: 20, sent: 1, replied: 0 },
      { date: now().toISOString().slice(0, 10), target: 25, sent: 3, replied: 1 },
    ]);
    expect(b.warmup.daily[0]).toEqual({
      date: ago(29 * DAY)
        .toISOString()
        .slice(0, 10),
      target: 0,
      sent: 0,
      replied: 0,
    });
    expect(b.bounceRate).toBeCloseTo(3 / 11);
    expect(b.placements.map((p: any) => p.id)).toEqual([ids.placement, expect.stringMatching(/^plt_/)]); // newest first
    expect(b.blacklist.hits.map((h: any) => [h.target, h.zone, h.source])).toEqual([["192.0.2.5", "zen.test", "job"]]);
    expect(b.alerts.map((a: any) => a.subject).sort()).toEqual(["192.0.2.5", ids.m1].sort());
  });

  it("has warmup null for a mailbox that never warmed, and 404 across workspaces", async () => {
    const r = await call(MAILBOX, "GET", "", { key: ws.readKey, params: { id: ids.m2 } });
    expect(r.body).toMatchObject({ warmup: null, bounceRate: null, placements: [] });
    // Its domain's alert shows; m1's own login alert does not.
    expect(r.body.alerts.map((a: any) => a.subject)).toEqual(["192.0.2.5"]);
    const x = await call(MAILBOX, "GET", "", { key: other.readKey, params: { id: ids.m1 } });
    expect([x.status, x.body.code]).toEqual([404, "NOT_FOUND"]);
  });
});

describe("GET /analytics/mailboxes", () => {
  it("gives each mailbox's health, warmup status, cap, campaign emails today and 30-day bounce rate; warmup mail is not counted", async () => {
    await ensureDomain(getDb(), other.workspaceId, "elsewhere.test");
    const r = await call(ANALYTICS, "GET", "/analytics/mailboxes", { key: ws.readKey });
    expect(r.status).toBe(200);
    expect(r.body.mailboxes).toHaveLength(8);
    const [m1, m2] = r.body.mailboxes;
    expect(m1).toMatchObject({ id: ids.m1, email: "m1@a.test", healthStatus: "HEALTHY", warmupStatus: "EARLY", dailySendCap: 20 });
    expect(m1).toMatchObject({ sentToday: 10, sent30d: 11, bounced30d: 3 });
    expect(m1.bounceRate).toBeCloseTo(3 / 11);
    expect(m2).toMatchObject({ sentToday: 0, bounceRate: 0, warmupStatus: "RAMPING" });
    expect(r.body.mailboxes.map((m: any) => m.healthStatus)).toEqual([
      "HEALTHY",
      "HEALTHY",
      "PAUSED",
      "AUTO_PAUSED",
      "LOGIN_FAILING",
      "HEALTHY",
      "READ_FAILING",
      "UNCHECKED",
    ]);
    expect((await call(ANALYTICS, "GET", "/analytics/mailboxes", { key: other.readKey })).body).toEqual({ mailboxes: [] });
  });
});
