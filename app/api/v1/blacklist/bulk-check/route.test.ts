import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { alerts, blacklistJobs, blacklistResults } from "@/db/schema";
import { type Clock, ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { runBlacklistChecks } from "@/lib/deliverability/blacklist-run";
import { ensureDomain } from "@/lib/domains/ensure-domain";
import { startDnsPeer, type Zone } from "@/test/peers/dns";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST } from "./route";
import { GET as JOB } from "./[jobId]/route";
import { GET as RESULTS } from "./[jobId]/results/route";

/**
 * Blacklist check jobs against a real DNS server (dns2) publishing two test blocklists: the sending
 * domain acme.test (A 192.0.2.1, MX mx.acme.test → 192.0.2.2) is listed on dbl.test, 192.0.2.2 on
 * zen.test, and bl.test refuses the query for 192.0.2.2 (127.255.255.254: no verdict).
 */
const A: Record<string, string[]> = {
  "acme.test": ["192.0.2.1"],
  "mx.acme.test": ["192.0.2.2"],
  "acme.test.dbl.test": ["127.0.1.2"],
  "2.2.0.192.zen.test": ["127.0.0.2"],
  "2.2.0.192.bl.test": ["127.255.255.254"],
  "other.test.dbl.test": ["127.0.1.2"],
  "99.2.0.192.zen.test": ["127.0.0.3"],
};
/** How many A queries the server answered for each name (a proxy on the zone the peer reads). */
const asked = new Map<string, number>();
const zone: Zone = {
  MX: { "acme.test": [{ exchange: "mx.acme.test", priority: 10 }] },
  A: new Proxy(A, {
    get(t, name: string) {
      asked.set(name, (asked.get(name) ?? 0) + 1);
      return t[name];
    },
  }),
};

let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let ws: TestWorkspace;
let other: TestWorkspace;
let acmeId: string;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));

beforeAll(async () => {
  dns = await startDnsPeer(zone);
  process.env.DNS_SERVERS = dns.server;
  process.env.DNSBL_DOMAIN_ZONES = "dbl.test";
  process.env.DNSBL_IP_ZONES = "zen.test,bl.test";
  ws = await makeWorkspace();
  other = await makeWorkspace();
  acmeId = await ensureDomain(getDb(), ws.workspaceId, "acme.test");
});
afterAll(() => {
  dns.close();
  for (const k of ["DNS_SERVERS", "DNSBL_DOMAIN_ZONES", "DNSBL_IP_ZONES"]) delete process.env[k];
});

const run = (c: Clock = clock) => runBlacklistChecks(systemCtx(undefined, { db: getDb(), clock: c }));

async function start(body: unknown, key = ws.fullKey) {
  return call(POST, "POST", "/blacklist/bulk-check", body === undefined ? { key } : { key, body });
}
async function job(id: string, key = ws.readKey) {
  return call(JOB, "GET", "", { key, params: { jobId: id } });
}
async function results(id: string, qs = "", key = ws.readKey) {
  return call(RESULTS, "GET", `/blacklist/bulk-check/${id}/results${qs}`, { key, params: { jobId: id } });
}
async function openAlerts(workspaceId = ws.workspaceId) {
  return getDb()
    .select()
    .from(alerts)
    .where(and(eq(alerts.workspaceId, workspaceId), eq(alerts.kind, "BLACKLISTED"), isNull(alerts.resolvedAt)));
}

describe("POST /blacklist/bulk-check and its job", () => {
  it("checks every sending domain and the addresses of its A and MX records for an empty body", async () => {
    const r = await start(undefined); // no body at all
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ jobId: expect.stringMatching(/^blj_/), status: "QUEUED" });
    expect((await job(r.body.jobId)).body).toMatchObject({ status: "QUEUED", total: 1, done: 0 });
    expect(await run()).toEqual({ jobs: 1, lookups: 5 });
    expect((await job(r.body.jobId)).body).toMatchObject({
      status: "COMPLETED",
      total: 5,
      done: 5,
      listedCount: 2,
      failedCount: 1,
      targets: 3,
      error: null,
      completedAt: clock.now().toISOString(),
    });
    const page = (await results(r.body.jobId)).body;
    expect(page).toMatchObject({ page: 1, limit: 50, total: 5 });
    expect(page.results.map((x: any) => [x.target, x.zone, x.listed, x.answer, x.failed])).toEqual([
      ["acme.test", "dbl.test", true, "127.0.1.2", false],
      ["192.0.2.2", "zen.test", true, "127.0.0.2", false],
      ["192.0.2.1", "bl.test", false, null, false],
      ["192.0.2.1", "zen.test", false, null, false],
      ["192.0.2.2", "bl.test", false, "127.255.255.254: the list refused the query", true],
    ]);
    expect((await results(r.body.jobId, "?listed=true&limit=1&page=2")).body).toMatchObject({
      total: 2,
      results: [{ target: "192.0.2.2" }],
    });
  });

  it("raises one BLACKLISTED alert per listed sending domain or address, naming the zones, and keeps one while still listed", async () => {
    const open = await openAlerts();
    expect(open.map((a) => [a.subject, a.domain, a.severity]).sort()).toEqual([
      ["192.0.2.2", "acme.test", "critical"],
      ["acme.test", "acme.test", "critical"],
    ]);
    expect(open.find((a) => a.subject === "acme.test")?.message).toContain("dbl.test");
    expect(open.find((a) => a.subject === "192.0.2.2")?.message).toContain("zen.test");
    clock.advance(60_000);
    const again = await start({});
    await run();
    expect((await job(again.body.jobId)).body.status).toBe("COMPLETED");
    expect((await openAlerts()).map((a) => a.id).sort()).toEqual(open.map((a) => a.id).sort());
  });

  it("resolves an alert on a clean check of its subject, and not while a zone could not answer", async () => {
    delete A["acme.test.dbl.test"];
    delete A["2.2.0.192.zen.test"];
    clock.advance(60_000);
    await start({ domainIds: [acmeId] });
    await run();
    // acme.test: every zone said not listed → resolved; 192.0.2.2: bl.test refused → no verdict, still open.
    expect((await openAlerts()).map((a) => a.subject)).toEqual(["192.0.2.2"]);
    delete A["2.2.0.192.bl.test"];
    clock.advance(60_000);
    await start({ domainIds: [acmeId] });
    await run();
    expect(await openAlerts()).toEqual([]);
    const closed = await getDb().select().from(alerts).where(eq(alerts.workspaceId, ws.workspaceId));
    expect(closed.map((a) => a.resolvedAt?.toISOString()).sort()).toEqual([
      new Date(clock.now().getTime() - 60_000).toISOString(),
      clock.now().toISOString(),
    ]);
  });

  it("checks named domains and IPs as given; only the workspace's own sending domains raise alerts", async () => {
    const r = await start({ domains: ["Other.Test."], ips: ["192.0.2.99", "2001:db8::1"] });
    await run();
    const j = (await job(r.body.jobId)).body;
    expect(j).toMatchObject({ status: "COMPLETED", total: 5, done: 5, listedCount: 2, targets: 3 });
    const rows = (await results(r.body.jobId, "?listed=true")).body.results;
    expect(rows.map((x: any) => [x.target, x.type, x.zone])).toEqual([
      ["other.test", "domain", "dbl.test"],
      ["192.0.2.99", "ip", "zen.test"],
    ]);
    expect(asked.get("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.zen.test")).toBe(1);
    expect(await openAlerts()).toEqual([]);
  });
});

describe("the job's lease and progress", () => {
  it("runs each look-up once when two workers run at the same time", async () => {
    for (let i = 0; i < 30; i++) A[`10.0.0.${i}`] = [];
    const ips = Array.from({ length: 30 }, (_, i) => `10.0.0.${i}`);
    const r = await start({ ips });
    asked.clear();
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.lookups + b.lookups).toBe(60);
    expect([a.jobs, b.jobs].sort()).toEqual([0, 1]);
    const names = ips.flatMap((ip) => ["zen.test", "bl.test"].map((z) => `${ip.split(".").reverse().join(".")}.${z}`));
    expect(names.map((n) => asked.get(n))).toEqual(names.map(() => 1));
    expect((await job(r.body.jobId)).body).toMatchObject({ status: "COMPLETED", total: 60, done: 60 });
  });

  it("leaves a job another worker holds, and resumes one whose worker died without asking again what it recorded", async () => {
    const r = await start({ ips: ["10.0.0.1", "10.0.0.2"] });
    const id = r.body.jobId;
    const held = new Date(clock.now().getTime() + 60_000);
    await getDb().update(blacklistJobs).set({ leaseUntil: held }).where(eq(blacklistJobs.id, id));
    expect(await run()).toEqual({ jobs: 0, lookups: 0 });
    // The holder recorded one answer, then died: its lease runs out.
    await getDb().update(blacklistJobs).set({ status: "RUNNING", done: 1 }).where(eq(blacklistJobs.id, id));
    await getDb()
      .insert(blacklistResults)
      .values({ jobId: id, target: "10.0.0.1", type: "ip", zone: "zen.test", listed: false, answer: null, checkedAt: clock.now() });
    clock.advance(61_000);
    asked.clear();
    expect(await run()).toEqual({ jobs: 1, lookups: 3 });
    expect(asked.has("1.0.0.10.zen.test")).toBe(false);
    expect(asked.get("1.0.0.10.bl.test")).toBe(1);
    expect((await job(id)).body).toMatchObject({ status: "COMPLETED", total: 4, done: 4 });
  });

  it("shows progress while a job runs over several runs, and frees the job when a run's time is up", async () => {
    const ips = Array.from({ length: 100 }, (_, i) => `10.0.1.${i}`);
    const r = await start({ ips });
    // A clock that moves 2 s each time it is read: the run's 10 s budget ends after a batch or two.
    const t = clock.now().getTime();
    let reads = 0;
    const ticking: Clock = { now: () => new Date(t + 2_000 * reads++) };
    await run(ticking);
    const mid = (await job(r.body.jobId)).body;
    expect(mid).toMatchObject({ status: "RUNNING", total: 200, listedCount: 0 });
    expect(mid.done).toBeGreaterThan(0);
    expect(mid.done).toBeLessThan(200);
    expect(mid.done % 48).toBe(0); // whole batches, counted from the recorded answers
    expect((await results(r.body.jobId)).body.total).toBe(mid.done);
    const [row] = await getDb().select().from(blacklistJobs).where(eq(blacklistJobs.id, r.body.jobId));
    expect(row.leaseUntil).toBeNull();
    await run();
    expect((await job(r.body.jobId)).body).toMatchObject({ status: "COMPLETED", done: 200 });
  });

  it("fails a job when no zone is configured", async () => {
    const r = await start({ ips: ["10.0.0.1"] });
    process.env.DNSBL_IP_ZONES = "";
    try {
      await run();
    } finally {
      process.env.DNSBL_IP_ZONES = "zen.test,bl.test";
    }
    expect((await job(r.body.jobId)).body).toMatchObject({ status: "FAILED", error: expect.stringContaining("DNSBL_IP_ZONES") });
  });
});

describe("validation and access", () => {
  it("answers 400 VALIDATION_ERROR with fieldErrors for bad domains, IPs and unknown domain ids", async () => {
    const bad = await start({ domains: ["ok.test", "not a domain"], ips: ["300.1.2.3"] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(bad.body.details.fieldErrors).sort()).toEqual(["domains.1", "ips.0"]);
    const otherDomain = await ensureDomain(getDb(), other.workspaceId, "theirs.test");
    const unknown = await start({ domainIds: [acmeId, otherDomain] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fieldErrors.domainIds[0]).toContain(otherDomain);
    expect((await start({ ips: Array.from({ length: 501 }, () => "10.0.0.1") })).status).toBe(400);
    const malformed = await call(POST, "POST", "/blacklist/bulk-check", { key: ws.fullKey, rawBody: "{nope" });
    expect([malformed.status, malformed.body.code]).toEqual([400, "BAD_REQUEST"]);
  });

  it("refuses a read-only key (403) and an empty check of a workspace without domains (400)", async () => {
    const ro = await start({}, ws.readKey);
    expect([ro.status, ro.body.code]).toEqual([403, "FORBIDDEN"]);
    const empty = await makeWorkspace();
    const r = await start({}, empty.fullKey);
    expect([r.status, r.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(r.body.details.formErrors[0]).toContain("no sending domains");
  });

  it("hides a job and its results from another workspace (404)", async () => {
    const r = await start({ ips: ["10.0.0.1"] });
    for (const res of [await job(r.body.jobId, other.readKey), await results(r.body.jobId, "", other.readKey)]) {
      expect([res.status, res.body.code]).toEqual([404, "NOT_FOUND"]);
    }
    expect((await job("blj_missing")).status).toBe(404);
  });
});
