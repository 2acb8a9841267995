import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { alerts, events, mailboxes } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { runPlacementReads } from "@/lib/placement/run";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer } from "@/test/peers/dns";
import { type MailNetwork, startMailNetwork } from "@/test/peers/mail-network";
import { POST as IMPORT } from "../mailboxes/bulk-import/route";
import { GET as GET_ONE } from "./[id]/route";
import { GET as LIST, POST as START } from "./route";

/**
 * Placement tests through real peers: one SMTP server for every account, one IMAP store per account
 * that files mail into INBOX or Junk by a rule, a Gmail-style seed with category labels, a pool seed
 * from SEED_POOL_FILE and a seed address nobody delivers to (MISSING). Time is the manual clock's.
 */
const clock = new ManualClock(new Date("2026-11-10T10:00:00Z"));
const accounts = {
  "sender@acme.test": "ps",
  "inbox@seeds.test": "p1",
  "junk@seeds.test": "p2",
  "tabs@gmail.test": "p3",
  "pool@pool.test": "p4",
  "ghost-box@pool.test": "p5",
  "other-seed@else.test": "p6",
  "sender2@acme.test": "p7",
};
let junkAll = false;
let net: MailNetwork;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let ws: TestWorkspace;
const dir = mkdtempSync(path.join(tmpdir(), "seed-pool-"));
const poolFile = path.join(dir, "pool.json");
const job = () => runPlacementReads(systemCtx(undefined, { db: getDb(), clock }));

async function importMailboxes(key: string, items: unknown[]) {
  const r = await call(IMPORT, "POST", "/mailboxes/bulk-import", { key, body: { mailboxes: items, verify: false } });
  expect(r.body.failed).toEqual([]);
  return new Map<string, string>(r.body.mailboxes.map((m: { email: string; id: string }) => [m.email, m.id]));
}

function poolItem(email: string, box = email) {
  const { imapHost, imapPort } = net.importItem(box);
  return { email, imapHost, imapPort, imapSecurity: "NONE", imapUsername: box, smtpPassword: accounts[box as keyof typeof accounts] };
}

let ids: Map<string, string>;
beforeAll(async () => {
  process.env.RATE_LIMIT_DISABLED = "1";
  dns = await startDnsPeer({ MX: { "gmail.test": [{ exchange: "aspmx.l.google.com", priority: 1 }] } });
  process.env.DNS_SERVERS = dns.server;
  net = await startMailNetwork({
    accounts,
    junk: (to) => junkAll || to === "junk@seeds.test",
    gmail: ["tabs@gmail.test"],
    labels: () => ["\\Inbox", "CATEGORY_PROMOTIONS"],
  });
  useClock(clock);
  ws = await makeWorkspace();
  const seed = { isSeed: true };
  ids = await importMailboxes(ws.fullKey, [
    net.importItem("sender@acme.test"),
    net.importItem("sender2@acme.test"),
    net.importItem("inbox@seeds.test", seed),
    net.importItem("junk@seeds.test", seed),
    net.importItem("tabs@gmail.test", seed),
  ]);
  // Another workspace's seed is never probed by this one.
  await importMailboxes((await makeWorkspace()).fullKey, [net.importItem("other-seed@else.test", seed)]);
  // The pool: one real seed and one address the network never delivers to, read from another box.
  writeFileSync(poolFile, JSON.stringify([poolItem("pool@pool.test"), poolItem("ghost@pool.test", "ghost-box@pool.test")]));
  process.env.SEED_POOL_FILE = poolFile;
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  delete process.env.SEED_POOL_FILE;
  delete process.env.DNS_SERVERS;
  await net.close();
  dns.close();
});
beforeEach(() => {
  junkAll = false;
  process.env.SEED_POOL_FILE = poolFile;
});

const start = (body: unknown, key = ws.fullKey) => call(START, "POST", "/placement-tests", { key, body });
const getOne = (id: string, key = ws.readKey) => call(GET_ONE, "GET", `/placement-tests/${id}`, { key, params: { id } });
const completedEvents = (testId: string) =>
  getDb()
    .select()
    .from(events)
    .where(and(eq(events.event, "placement.completed"), eq(events.workspaceId, ws.workspaceId)))
    .then((rows) => rows.filter((e) => (e.data as { testId: string }).testId === testId));

/** Starts a test from `email` and runs the job until the deadline has passed; returns the finished test. */
async function runToEnd(email: string) {
  const r = await start({ mailboxId: ids.get(email) });
  expect(r.status).toBe(202);
  await job();
  clock.advance(601_000);
  await job();
  return (await getOne(r.body.id)).body;
}

describe("POST /placement-tests", () => {
  it("probes every seed (own seeds and the pool, never another workspace's) and reads where each landed", async () => {
    const r = await start({ mailboxId: ids.get("sender@acme.test"), subject: "Lunch next week?" });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^plt_/),
      batchId: expect.stringMatching(/^plb_/),
      status: "RUNNING",
      seedCount: 5,
    });
    // ghost@pool.test is accepted and dropped: no store of the network holds it (it will be MISSING).
    const probes = net.delivered.filter((d) => d.from === "sender@acme.test");
    expect(probes.map((d) => d.to).sort()).toEqual(["inbox@seeds.test", "junk@seeds.test", "pool@pool.test", "tabs@gmail.test"]);
    expect(new Set(probes.map((d) => d.messageId)).size).toBe(4);
    expect(probes[0].raw).toContain("Subject: Lunch next week?");
    // Ordinary mail: no header, tag, link or pixel a provider could filter on.
    for (const p of probes) expect(p.raw).not.toMatch(/x-outreach|placement|probe|warmup|list-unsubscribe|<img|https?:/i);

    expect(await job()).toMatchObject({ tests: 1, read: 5, found: 4, completed: 0 });
    const running = (await getOne(r.body.id)).body;
    expect(running).toMatchObject({ status: "RUNNING", inboxCount: 3, spamCount: 1, missingCount: 0, gmailTabs: { PROMOTIONS: 1 } });
    const bySeed = Object.fromEntries(running.results.map((x: { seedEmail: string }) => [x.seedEmail, x]));
    expect(bySeed["inbox@seeds.test"]).toMatchObject({ placement: "INBOX", folder: "INBOX", tab: null, provider: "OTHER" });
    expect(bySeed["junk@seeds.test"]).toMatchObject({ placement: "SPAM", folder: "Junk", tab: null });
    expect(bySeed["tabs@gmail.test"]).toMatchObject({ placement: "INBOX", folder: "INBOX", tab: "PROMOTIONS", provider: "GOOGLE" });
    expect(bySeed["pool@pool.test"]).toMatchObject({ placement: "INBOX", provider: "OTHER" });
    expect(bySeed["ghost@pool.test"]).toMatchObject({ placement: "PENDING", folder: null, receivedAt: null });
    expect(await job()).toEqual({ tests: 0 }); // the next read waits READ_EVERY_MS
    expect(await completedEvents(r.body.id)).toEqual([]);

    clock.advance(601_000); // past PLACEMENT_WAIT_S: what is not found is MISSING
    expect(await job()).toMatchObject({ tests: 1, read: 1, found: 0, completed: 1 });
    await job();
    const done = (await getOne(r.body.id)).body;
    expect(done).toMatchObject({
      status: "COMPLETED",
      seedCount: 5,
      inboxCount: 3,
      spamCount: 1,
      missingCount: 1,
      completedAt: clock.now().toISOString(),
    });
    const evs = await completedEvents(r.body.id);
    expect(evs).toHaveLength(1);
    expect(evs[0].data).toEqual({
      testId: r.body.id,
      batchId: r.body.batchId,
      mailboxId: ids.get("sender@acme.test"),
      mailboxEmail: "sender@acme.test",
      status: "COMPLETED",
      seedCount: 5,
      inboxCount: 3,
      spamCount: 1,
      missingCount: 1,
      gmailTabs: { PROMOTIONS: 1 },
      createdAt: done.createdAt,
      completedAt: done.completedAt,
    });
  }, 60_000);

  it("answers NO_SEED_POOL at once when there are no seeds, and fires placement.completed once for it", async () => {
    const lone = await makeWorkspace();
    delete process.env.SEED_POOL_FILE;
    const m = await importMailboxes(lone.fullKey, [net.importItem("sender@acme.test")]);
    const r = await start({ mailboxId: m.get("sender@acme.test") }, lone.fullKey);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: "NO_SEED_POOL", seedCount: 0 });
    await job();
    const evs = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, lone.workspaceId), eq(events.event, "placement.completed")));
    expect(evs.map((e) => (e.data as { status: string }).status)).toEqual(["NO_SEED_POOL"]);
  });

  it("refuses bad bodies (400 with fieldErrors), other workspaces' mailboxes (404), seeds and failing logins (409), read keys (403)", async () => {
    const bad = await start({ subject: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(bad.body.details.fieldErrors).sort()).toEqual(["mailboxId", "subject"]);
    expect((await start([1])).body.code).toBe("VALIDATION_ERROR");
    expect((await start({ mailboxId: "mbx_nope" })).status).toBe(404);
    const foreign = await makeWorkspace();
    const other = await importMailboxes(foreign.fullKey, [net.importItem("sender2@acme.test")]);
    expect((await start({ mailboxId: other.get("sender2@acme.test") })).status).toBe(404);
    const seed = await start({ mailboxId: ids.get("inbox@seeds.test") });
    expect([seed.status, seed.body.code]).toEqual([409, "CONFLICT"]);
    await getDb()
      .update(mailboxes)
      .set({ loginFailingSince: clock.now(), loginError: "535 no" })
      .where(eq(mailboxes.id, other.get("sender2@acme.test")!));
    const failing = await start({ mailboxId: other.get("sender2@acme.test") }, foreign.fullKey);
    expect([failing.status, failing.body.code]).toEqual([409, "CONFLICT"]);
    expect(failing.body.error).toContain("535 no");
    expect((await start({ mailboxId: ids.get("sender@acme.test") }, ws.readKey)).status).toBe(403);
  });

  it("records a bad SEED_POOL_FILE as a FAILED test that says what is wrong, without sending", async () => {
    writeFileSync(path.join(dir, "bad.json"), JSON.stringify([{ email: "x@pool.test", imapPort: 993 }]));
    process.env.SEED_POOL_FILE = path.join(dir, "bad.json");
    const sent = net.delivered.length;
    const r = await start({ mailboxId: ids.get("sender@acme.test") });
    expect(r.body).toMatchObject({ status: "FAILED", seedCount: 0 });
    expect(net.delivered.length).toBe(sent);
    const t = (await getOne(r.body.id)).body;
    expect(t.error).toMatch(/SEED_POOL_FILE .*bad\.json.*\[0\]\.imapHost/);
    expect((await completedEvents(r.body.id)).map((e) => (e.data as { status: string }).status)).toEqual(["FAILED"]);
  });

  it("FAILs the test when the sender's SMTP login is refused, each seed MISSING with the server's words", async () => {
    const wrong = await importMailboxes(ws.fullKey, [{ ...net.importItem("sender2@acme.test"), smtpPassword: "wrong" }]);
    const r = await start({ mailboxId: wrong.get("sender2@acme.test") });
    expect(r.body).toMatchObject({ status: "FAILED", seedCount: 5 });
    const t = (await getOne(r.body.id)).body;
    expect(t).toMatchObject({ status: "FAILED", missingCount: 5 });
    expect(t.error).toContain("Username and Password not accepted");
    expect(t.results.every((x: { sendError: string }) => x.sendError.includes("535") || x.sendError.includes("not accepted"))).toBe(true);
    expect(await completedEvents(r.body.id)).toHaveLength(1);
  });
});

describe("GET /placement-tests", () => {
  it("lists tests newest first with paging and a mailbox filter; another workspace's test is 404", async () => {
    const list = await call(LIST, "GET", "/placement-tests?limit=2", { key: ws.readKey });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
    expect(list.body.tests).toHaveLength(2);
    expect(list.body.total).toBe(3); // the 409s created nothing; NO_SEED_POOL was another workspace's
    const all = (await call(LIST, "GET", "/placement-tests?limit=200", { key: ws.readKey })).body.tests;
    expect(all.map((t: { createdAt: string }) => t.createdAt)).toEqual(
      [...all.map((t: { createdAt: string }) => t.createdAt)].sort().reverse(),
    );
    const only = (await call(LIST, "GET", `/placement-tests?mailboxId=${ids.get("sender@acme.test")}`, { key: ws.readKey })).body;
    expect(only.tests.every((t: { mailboxEmail: string }) => t.mailboxEmail === "sender@acme.test")).toBe(true);
    expect((await call(LIST, "GET", "/placement-tests?limit=500", { key: ws.readKey })).body.code).toBe("VALIDATION_ERROR");
    const stranger = await makeWorkspace();
    expect((await getOne(all[0].id, stranger.readKey)).status).toBe(404);
  });
});

describe("PLACEMENT_DROP", () => {
  const openDrops = () =>
    getDb()
      .select()
      .from(alerts)
      .where(and(eq(alerts.workspaceId, ws.workspaceId), eq(alerts.kind, "PLACEMENT_DROP"), isNull(alerts.resolvedAt)));

  it("raises when a test lands under 50 % in the inbox and resolves on a later clean test", async () => {
    await runToEnd("sender@acme.test"); // 3 of 5 in the inbox: 60 %, nothing to say
    expect(await openDrops()).toEqual([]);
    junkAll = true;
    const dropped = await runToEnd("sender@acme.test");
    expect(dropped).toMatchObject({ status: "COMPLETED", inboxCount: 0, spamCount: 4, missingCount: 1 });
    const [open] = await openDrops();
    expect(open).toMatchObject({ mailboxId: ids.get("sender@acme.test"), severity: "warning" });
    expect(open.message).toContain("0% of placement seeds");
    junkAll = false;
    await runToEnd("sender@acme.test");
    expect(await openDrops()).toEqual([]);
  }, 90_000);
});
