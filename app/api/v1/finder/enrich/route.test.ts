import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { getDb } from "@/db/client";
import { RUN_BUDGET_MS, runFinderEnrich } from "@/lib/finder/enrich-run";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer } from "@/test/peers/dns";
import { startVerifyPeers } from "@/test/peers/verify-peers";
import { POST as CREATE_CAMPAIGN } from "../../campaigns/route";
import { POST as CREATE_LEADS } from "../../leads/route";
import { GET as CAMPAIGN_LEADS } from "../../campaigns/[id]/leads/route";
import { POST as SUPPRESS } from "../../suppressions/route";
import { POST as IMPORT } from "../directory/import/route";
import { POST as ESTIMATE } from "./estimate/route";
import { POST as ADD } from "./jobs/[id]/add-to-leads/route";
import { POST as CANCEL } from "./jobs/[id]/cancel/route";
import { GET as JOB } from "./jobs/[id]/route";
import { POST as ENRICH } from "./route";

/**
 * Enrichment over real DNS (dns2) and real SMTP (smtp-server): accept.test's MX is a Google host name
 * (ESP class GOOGLE) whose mailboxes are known, refuse.test refuses every address with 550 5.1.1,
 * grey.test greylists (451) each address once, catchall.test accepts anything, slow.test never greets,
 * nomx.test publishes no MX.
 */
let ws: TestWorkspace;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let smtp: Awaited<ReturnType<typeof startVerifyPeers>>;
const clock = new ManualClock(new Date("2026-11-20T10:00:00Z"));
const ids: Record<string, string> = {};
const acceptKnown = ["ada.lovelace@accept.test", "aturing@accept.test"];

const run = () => runFinderEnrich(systemCtx(undefined, { db: getDb(), clock }));
const job = (id: string) => call(JOB, "GET", "", { key: ws.readKey, params: { id } });
const byPerson = (body: any) => Object.fromEntries(body.results.map((r: any) => [r.personId, r]));

const people = [
  { firstName: "Ada", lastName: "Lovelace", companyDomain: "accept.test", companyName: "Accept", title: "CTO" },
  { firstName: "Alan", lastName: "Turing", companyDomain: "accept.test" },
  { firstName: "Bob", lastName: "Refused", companyDomain: "refuse.test" },
  { firstName: "Cat", lastName: "Grey", companyDomain: "grey.test" },
  { firstName: "Dan", lastName: "All", companyDomain: "catchall.test" },
  { firstName: "Eve", lastName: "Slow", companyDomain: "slow.test" },
  { firstName: "Fay", lastName: "Nomx", companyDomain: "nomx.test" },
  { firstName: "Gus", lastName: "Nodomain" },
];

beforeAll(async () => {
  smtp = await startVerifyPeers([
    { kind: "mailboxes", known: acceptKnown },
    { kind: "refuse" },
    { kind: "greylist", times: 1, known: ["cat.grey@grey.test"] },
    { kind: "catch-all" },
  ]);
  const [accept, refuse, grey, catchAll] = smtp.peers.map((p) => p.host);
  dns = await startDnsPeer({
    MX: {
      "accept.test": [{ exchange: "alt1.aspmx.l.google.com", priority: 10 }],
      "refuse.test": [{ exchange: "mx.refuse.test", priority: 10 }],
      "grey.test": [{ exchange: "mx.grey.test", priority: 10 }],
      "catchall.test": [{ exchange: "mx.catchall.test", priority: 10 }],
      "slow.test": [{ exchange: "mx.slow.test", priority: 10 }],
    },
    A: {
      "alt1.aspmx.l.google.com": [accept],
      "mx.refuse.test": [refuse],
      "mx.grey.test": [grey],
      "mx.catchall.test": [catchAll],
      "mx.slow.test": [smtp.silent.host],
      "nomx.test": ["192.0.2.9"],
    },
  });
  Object.assign(process.env, {
    DNS_SERVERS: dns.server,
    SMTP_VERIFY_PORT: String(smtp.port),
    SMTP_VERIFY_TIMEOUT_MS: "700",
    SMTP_VERIFY_DELAY_MS: "0",
  });
  ws = await makeWorkspace();
  // A colleague at accept.test whose address shows the company's pattern (flast).
  await call(CREATE_LEADS, "POST", "/leads", {
    key: ws.fullKey,
    body: { leads: [{ email: "ghopper@accept.test", firstName: "Grace", lastName: "Hopper" }] },
  });
  const r = await call(IMPORT, "POST", "/finder/directory/import", { key: ws.fullKey, body: { people } });
  r.body.personIds.forEach((id: string, i: number) => {
    ids[people[i].firstName] = id;
  });
});
afterAll(async () => {
  dns.close();
  await smtp.close();
  for (const k of ["DNS_SERVERS", "SMTP_VERIFY_PORT", "SMTP_VERIFY_TIMEOUT_MS", "SMTP_VERIFY_DELAY_MS"]) delete process.env[k];
});

describe("POST /finder/enrich and its job", () => {
  let jobId: string;

  it("estimates the people that can be worked (a domain and a name) and their credits", async () => {
    const r = await call(ESTIMATE, "POST", "/finder/enrich/estimate", { key: ws.fullKey, body: { personIds: Object.values(ids) } });
    expect(r.body).toEqual({ people: 7, credits: 7 });
    const bad = await call(ESTIMATE, "POST", "/finder/enrich/estimate", { key: ws.fullKey, body: { personIds: ["fdp_nope"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fieldErrors.personIds[0]).toContain("fdp_nope");
  });

  it("starts a QUEUED job (202); a person without a domain is done at once as UNKNOWN", async () => {
    const r = await call(ENRICH, "POST", "/finder/enrich", { key: ws.fullKey, body: { personIds: Object.values(ids) } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: "QUEUED", total: 8, done: 1, found: 0, verified: 0 });
    expect(byPerson(r.body)[ids.Gus]).toMatchObject({ pending: false, verificationStatus: "UNKNOWN", detail: "no company domain" });
    jobId = r.body.id;
  });

  it("tells valid, invalid, catch-all and unknown apart over real SMTP, with the ESP class from the MX hosts", async () => {
    await run();
    const r = await job(jobId);
    const res = byPerson(r.body);
    expect(res[ids.Ada]).toMatchObject({
      email: "ada.lovelace@accept.test",
      verificationStatus: "VALID",
      espClass: "GOOGLE",
      pending: false,
    });
    expect(res[ids.Bob]).toMatchObject({ email: null, verificationStatus: "INVALID", espClass: "OTHER" });
    expect(res[ids.Bob].detail).toContain("5.1.1");
    expect(res[ids.Dan]).toMatchObject({ email: "dan.all@catchall.test", verificationStatus: "CATCH_ALL" });
    expect(res[ids.Eve]).toMatchObject({ email: null, verificationStatus: "UNKNOWN", pending: false });
    expect(res[ids.Eve].detail).toContain("700 ms");
    expect(res[ids.Fay]).toMatchObject({ verificationStatus: "INVALID", detail: "nomx.test has no MX records" });
    expect(r.body).toMatchObject({ status: "RUNNING", done: 7, found: 3, verified: 2 });
  });

  it("tries the colleagues' pattern first (flast learned from a lead), and probes a random address once one is accepted", () => {
    const accept = smtp.peers[0].rcpts;
    // Ada: flast refused, first.last accepted, then the catch-all probe; Alan: flast accepted at once, the probe.
    expect(accept.slice(0, 5)).toEqual([
      "alovelace@accept.test",
      "ada.lovelace@accept.test",
      expect.stringMatching(/^[0-9a-f]{16}-probe@accept\.test$/),
      "aturing@accept.test",
      expect.stringMatching(/^[0-9a-f]{16}-probe@accept\.test$/),
    ]);
    expect(accept).toHaveLength(5);
    // refuse.test: every common pattern, at most six, each refused.
    expect(smtp.peers[1].rcpts).toEqual([
      "bob.refused@refuse.test",
      "bob@refuse.test",
      "brefused@refuse.test",
      "bobrefused@refuse.test",
      "bobr@refuse.test",
      "bob_refused@refuse.test",
    ]);
  });

  it("keeps a greylisted person pending until the next attempt time, then verifies it", async () => {
    const grey = smtp.peers[2].rcpts;
    // Greylisted, the session still asks every other guess and the catch-all probe (the greylister sees them all once).
    expect(grey[0]).toBe("cat.grey@grey.test");
    const asked = grey.length;
    const pending = byPerson((await job(jobId)).body)[ids.Cat];
    expect(pending).toMatchObject({ pending: true, verificationStatus: "UNVERIFIED", nextAttemptAt: "2026-11-20T10:05:00.000Z" });
    expect(pending.detail).toContain("451");
    await run();
    expect(grey).toHaveLength(asked);
    clock.advance(5 * 60_000);
    await run();
    const done = (await job(jobId)).body;
    expect(byPerson(done)[ids.Cat]).toMatchObject({ pending: false, email: "cat.grey@grey.test", verificationStatus: "VALID" });
    expect(done).toMatchObject({ status: "COMPLETED", done: 8, found: 4, verified: 3, completedAt: clock.now().toISOString() });
  });

  it("writes the found address and verdict on the directory person", async () => {
    const { GET } = await import("../people/[id]/route");
    const r = await call(GET, "GET", "", { key: ws.readKey, params: { id: ids.Ada } });
    expect(r.body).toMatchObject({ email: "ada.lovelace@accept.test", verificationStatus: "VALID", espClass: "GOOGLE" });
  });

  it("adds the VALID and CATCH_ALL people as leads and to a campaign, skipping suppressed addresses", async () => {
    await call(SUPPRESS, "POST", "/suppressions", { key: ws.fullKey, body: { emails: ["dan.all@catchall.test"] } });
    const campaign = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Finder" } })).body;
    const r = await call(ADD, "POST", "", { key: ws.fullKey, params: { id: jobId }, body: { campaignId: campaign.id } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      created: 3,
      suppressedEmails: ["dan.all@catchall.test"],
      campaign: { campaignId: campaign.id, added: 3 },
    });
    const leads = await call(CAMPAIGN_LEADS, "GET", `/campaigns/${campaign.id}/leads`, { key: ws.readKey, params: { id: campaign.id } });
    const emails = (leads.body.leads ?? leads.body).map((l: any) => l.email ?? l.lead?.email).sort();
    expect(emails).toEqual(["ada.lovelace@accept.test", "aturing@accept.test", "cat.grey@grey.test"]);
    const missing = await call(ADD, "POST", "", { key: ws.fullKey, params: { id: jobId }, body: { campaignId: "cmp_nope" } });
    expect(missing.status).toBe(404);
  });

  it("stops probing when the job is cancelled midway (the peer counts the RCPTs)", async () => {
    const imported = await call(IMPORT, "POST", "/finder/directory/import", {
      key: ws.fullKey,
      body: { people: [1, 2, 3, 4, 5].map((i) => ({ firstName: `P${i}`, lastName: "Test", companyDomain: "accept.test" })) },
    });
    const started = await call(ENRICH, "POST", "/finder/enrich", { key: ws.fullKey, body: { personIds: imported.body.personIds } });
    const id = started.body.id;
    const peer = smtp.peers[0];
    const before = peer.rcpts.length;
    let cancelled: any;
    peer.onRcpt = async () => {
      peer.onRcpt = undefined;
      cancelled = await call(CANCEL, "POST", "", { key: ws.fullKey, params: { id } });
    };
    await run();
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", done: 0 });
    // The first person's session ends (its six guesses, all refused); nobody after it is asked (5 × 6 otherwise).
    expect(peer.rcpts.slice(before)).toHaveLength(6);
    const after = (await job(id)).body;
    expect(after).toMatchObject({ status: "CANCELLED", done: 0 });
    await run();
    expect(peer.rcpts.slice(before)).toHaveLength(6);
  });

  it("ends a run when its budget on the injected clock is spent; the next run carries on", async () => {
    const imported = await call(IMPORT, "POST", "/finder/directory/import", {
      key: ws.fullKey,
      body: { people: [1, 2, 3].map((i) => ({ firstName: `B${i}`, lastName: "Budget", companyDomain: "accept.test" })) },
    });
    const started = await call(ENRICH, "POST", "/finder/enrich", { key: ws.fullKey, body: { personIds: imported.body.personIds } });
    const peer = smtp.peers[0];
    const before = peer.rcpts.length;
    // The budget runs out while the first person is being verified: that person is finished, nobody after.
    peer.onRcpt = async () => {
      peer.onRcpt = undefined;
      clock.advance(RUN_BUDGET_MS + 1);
    };
    expect(await run()).toMatchObject({ people: 1 });
    expect(peer.rcpts.slice(before)).toHaveLength(6);
    expect((await job(started.body.id)).body).toMatchObject({ status: "RUNNING", done: 1 });
    expect(await run()).toMatchObject({ people: 2 });
    expect((await job(started.body.id)).body).toMatchObject({ status: "COMPLETED", done: 3 });
  });

  it("keeps jobs to their workspace (404) and needs a full key to start or cancel", async () => {
    const other = await makeWorkspace();
    expect((await call(JOB, "GET", "", { key: other.readKey, params: { id: jobId } })).status).toBe(404);
    expect((await call(CANCEL, "POST", "", { key: other.fullKey, params: { id: jobId } })).status).toBe(404);
    expect((await call(ENRICH, "POST", "/finder/enrich", { key: ws.readKey, body: { personIds: [ids.Ada] } })).status).toBe(403);
  });
});

describe("POST /leads with verify: true", () => {
  it("saves the leads as usual and verifies their own addresses in the background, setting verificationStatus", async () => {
    const body = {
      leads: [{ email: "Ada.Lovelace@accept.test" }, { email: "nobody@refuse.test" }, { email: "any@catchall.test" }],
      verify: true,
    };
    const r = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body });
    expect(r.status).toBe(200);
    expect(r.body.verificationJobId).toMatch(/^fej_/);
    const queued = (await job(r.body.verificationJobId)).body;
    expect(queued).toMatchObject({ kind: "LEADS", status: "QUEUED", total: 3 });
    await run();
    const done = (await job(r.body.verificationJobId)).body;
    expect(done.status).toBe("COMPLETED");
    const { GET } = await import("../../leads/[id]/route");
    const statuses = [];
    for (const id of r.body.leadIds)
      statuses.push((await call(GET, "GET", "", { key: ws.readKey, params: { id } })).body.verificationStatus);
    expect(statuses).toEqual(["VALID", "INVALID", "CATCH_ALL"]);
  });

  it("without verify queues nothing and answers as before", async () => {
    const r = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "x@accept.test" }] } });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty("verificationJobId");
  });
});

describe("a configured paid provider", () => {
  it("is asked first for a person's address, which is then verified over SMTP like a guess", async () => {
    const asked: string[] = [];
    const http = await import("node:http");
    const server = http.createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: { email: "q.special@accept.test", score: 80 } }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    process.env.HUNTER_API_KEY = "k";
    process.env.HUNTER_BASE_URL = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    acceptKnown.push("q.special@accept.test");
    try {
      const imported = await call(IMPORT, "POST", "/finder/directory/import", {
        key: ws.fullKey,
        body: { people: [{ firstName: "Quinn", lastName: "Provider", companyDomain: "accept.test" }] },
      });
      const started = await call(ENRICH, "POST", "/finder/enrich", { key: ws.fullKey, body: { personIds: imported.body.personIds } });
      const before = smtp.peers[0].rcpts.length;
      await run();
      const r = (await job(started.body.id)).body;
      expect(r.results[0]).toMatchObject({ email: "q.special@accept.test", verificationStatus: "VALID" });
      expect(smtp.peers[0].rcpts[before]).toBe("q.special@accept.test");
      expect(asked[0]).toContain("first_name=Quinn");
    } finally {
      delete process.env.HUNTER_API_KEY;
      delete process.env.HUNTER_BASE_URL;
      server.close();
    }
  });
});
