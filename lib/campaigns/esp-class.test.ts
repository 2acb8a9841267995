import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSocket } from "node:dgram";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { leadDomains, leads } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { runJob } from "@/inngest/runner";
import { jobs } from "@/inngest/functions";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startDnsPeer, type Zone } from "@/test/peers/dns";
import { GET as LIST_LEADS, POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PATCH as PATCH_LEAD } from "@/app/api/v1/leads/[id]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_TO_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/leads/route";
import { leadEspClassJob } from "../../inngest/functions/lead-esp-class";
import { classifyBatch, lookupEspClass } from "./esp-class";

// MX look-ups are counted per name where the DNS peer reads the zone: every MX question reads zone.MX[name]
// (twice when the name is there, in one synchronous handler call — counted once).
const mxAsked = new Map<string, number>();
const inThisCall = new Set<string>();
const mx: NonNullable<Zone["MX"]> = {
  "goog.test": [
    { exchange: "alt1.aspmx.l.google.com", priority: 5 },
    { exchange: "aspmx.l.google.com", priority: 1 },
  ],
  "ms.test": [{ exchange: "ms-test.mail.protection.outlook.com", priority: 0 }],
  "zo.test": [{ exchange: "mx.zoho.eu", priority: 10 }],
  "other.test": [{ exchange: "mail.other.test", priority: 10 }],
};
const zone: Zone = {
  MX: new Proxy(mx, {
    get(target, name) {
      if (typeof name === "string" && !inThisCall.has(name)) {
        inThisCall.add(name);
        queueMicrotask(() => inThisCall.delete(name));
        mxAsked.set(name, (mxAsked.get(name) ?? 0) + 1);
      }
      return Reflect.get(target, name);
    },
  }),
  // An address with an A record but no MX: answered NODATA, not NXDOMAIN.
  A: { "arecord.test": ["192.0.2.1"] },
};

let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let ws: TestWorkspace;
let other: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));

beforeAll(async () => {
  dns = await startDnsPeer(zone);
  process.env.DNS_SERVERS = dns.server;
  ws = await makeWorkspace();
  other = await makeWorkspace();
});
afterAll(() => {
  dns.close();
  delete process.env.DNS_SERVERS;
});

const runEsp = async () => (await runJob(getDb(), clock, leadEspClassJob)) as Record<string, number>;
const asked = (name: string) => mxAsked.get(name) ?? 0;
async function createLeads(t: TestWorkspace, emails: string[]): Promise<string[]> {
  const r = await call(CREATE_LEADS, "POST", "/leads", { key: t.fullKey, body: { leads: emails.map((email) => ({ email })) } });
  expect(r.status).toBe(200);
  return r.body.leadIds;
}
async function listBy(t: TestWorkspace, espClass: string): Promise<string[]> {
  const r = await call(LIST_LEADS, "GET", `/leads?espClass=${espClass}&limit=200`, { key: t.readKey });
  expect(r.status).toBe(200);
  return r.body.leads.map((l: { email: string }) => l.email).sort();
}
async function classOf(email: string): Promise<string> {
  const [l] = await getDb().select({ c: leads.espClass }).from(leads).where(sql`lower(${leads.email}) = ${email.toLowerCase()}`);
  return l.c;
}

describe("lookupEspClass", () => {
  it("reads the class from MX hosts, OTHER for other hosts or none, and knows consumer domains without DNS", async () => {
    expect(await lookupEspClass("goog.test")).toEqual({ espClass: "GOOGLE", mx: "aspmx.l.google.com" });
    expect(await lookupEspClass("zo.test")).toEqual({ espClass: "ZOHO", mx: "mx.zoho.eu" });
    expect(await lookupEspClass("other.test")).toEqual({ espClass: "OTHER", mx: "mail.other.test" });
    expect(await lookupEspClass("nowhere.test")).toEqual({ espClass: "OTHER", mx: null });
    expect(await lookupEspClass("arecord.test")).toEqual({ espClass: "OTHER", mx: null });
    const before = mxAsked.size;
    expect(await lookupEspClass("Outlook.com")).toEqual({ espClass: "MICROSOFT", mx: null });
    expect(await lookupEspClass("icloud.com")).toEqual({ espClass: "OTHER", mx: null });
    expect(mxAsked.size).toBe(before);
    mxAsked.clear();
  });
});

describe("the lead ESP class job", () => {
  it("is registered with the other background jobs", () => {
    expect(jobs).toContain(leadEspClassJob);
  });

  it("classifies google, microsoft, zoho, other and no-MX leads in one run, looking each domain up once across workspaces", async () => {
    await createLeads(ws, [
      "a@goog.test",
      "b@goog.test",
      "C@Goog.test",
      "d@ms.test",
      "e@ms.test",
      "f@zo.test",
      "g@other.test",
      "h@nowhere.test",
      "i@arecord.test",
      "j@gmail.com",
      "k@hotmail.com",
    ]);
    await createLeads(other, ["x@goog.test", "y@ms.test"]);
    expect(await listBy(ws, "UNKNOWN")).toHaveLength(11);

    const r = await runEsp();
    expect(r).toMatchObject({ lookedUp: 8, failed: 0, classified: 13 });
    for (const d of ["goog.test", "ms.test", "zo.test", "other.test", "nowhere.test", "arecord.test"]) expect(asked(d), d).toBe(1);
    expect(asked("gmail.com") + asked("hotmail.com")).toBe(0);

    expect(await listBy(ws, "GOOGLE")).toEqual(["C@goog.test", "a@goog.test", "b@goog.test", "j@gmail.com"]);
    expect(await listBy(ws, "MICROSOFT")).toEqual(["d@ms.test", "e@ms.test", "k@hotmail.com"]);
    expect(await listBy(ws, "ZOHO")).toEqual(["f@zo.test"]);
    expect(await listBy(ws, "OTHER")).toEqual(["g@other.test", "h@nowhere.test", "i@arecord.test"]);
    expect(await listBy(ws, "UNKNOWN")).toEqual([]);
    expect(await listBy(other, "GOOGLE")).toEqual(["x@goog.test"]);
    expect(await listBy(other, "MICROSOFT")).toEqual(["y@ms.test"]);

    const [g] = await getDb().select().from(leadDomains).where(eq(leadDomains.domain, "goog.test"));
    expect(g).toMatchObject({ espClass: "GOOGLE", mx: "aspmx.l.google.com", failures: 0, error: null, checkedAt: clock.now() });

    // Nothing left: the next run asks nothing.
    expect(await runEsp()).toMatchObject({ lookedUp: 0, classified: 0 });
    expect(asked("goog.test")).toBe(1);
  });

  it("classifies a lead added later at a known domain on insert, without a look-up", async () => {
    const [id] = await createLeads(ws, ["late@goog.test"]);
    const r = await call(LIST_LEADS, "GET", "/leads?espClass=GOOGLE&limit=200", { key: ws.readKey });
    expect(r.body.leads.map((l: { id: string }) => l.id)).toContain(id);
    expect(asked("goog.test")).toBe(1);
  });

  it("gives a lead written while its domain was being looked up the cached class on the next run, without a look-up", async () => {
    await getDb()
      .insert(leads)
      .values({ id: newId("lead"), workspaceId: ws.workspaceId, email: "raced@ms.test" });
    expect(await classOf("raced@ms.test")).toBe("UNKNOWN");
    expect(await runEsp()).toMatchObject({ lookedUp: 0, fromCache: 1, classified: 1 });
    expect(await classOf("raced@ms.test")).toBe("MICROSOFT");
    expect(asked("ms.test")).toBe(1);
  });

  it("classifies a big domain in passes of at most moveLimit leads, the later ones from the cache", async () => {
    mx["big.test"] = [{ exchange: "big-test.mail.protection.outlook.com", priority: 0 }];
    await createLeads(
      ws,
      Array.from({ length: 25 }, (_, i) => `u${i}@big.test`),
    );
    const pass = () => classifyBatch(getDb(), clock.now(), { moveLimit: 10 });
    expect(await pass()).toMatchObject({ lookedUp: 1, fromCache: 0, classified: 10, more: true });
    expect(await pass()).toMatchObject({ lookedUp: 0, fromCache: 1, classified: 10, more: true });
    expect(await pass()).toMatchObject({ lookedUp: 0, fromCache: 1, classified: 5, more: true });
    expect(await pass()).toMatchObject({ lookedUp: 0, classified: 0, more: false });
    expect(asked("big.test")).toBe(1);
    expect((await listBy(ws, "MICROSOFT")).filter((e) => e.endsWith("@big.test"))).toHaveLength(25);
  });

  it("looks up at most maxLookups domains per pass, the busiest first", async () => {
    for (const d of ["one.test", "two.test", "three.test"]) mx[d] = [{ exchange: `mx.${d}`, priority: 10 }];
    await createLeads(ws, ["a@one.test", "a@two.test", "b@two.test", "a@three.test", "b@three.test", "c@three.test"]);
    const pass = () => classifyBatch(getDb(), clock.now(), { maxLookups: 2 });
    expect(await pass()).toMatchObject({ lookedUp: 2, classified: 5, more: true });
    expect(await classOf("a@one.test")).toBe("UNKNOWN");
    expect(await pass()).toMatchObject({ lookedUp: 1, classified: 1, more: true });
    expect(await pass()).toMatchObject({ lookedUp: 0, more: false });
    expect(await classOf("a@one.test")).toBe("OTHER");
  });

  it("re-derives the class when a lead's address moves to another domain", async () => {
    const [id] = await createLeads(ws, ["mover@other.test"]);
    expect(await classOf("mover@other.test")).toBe("OTHER");
    const toMs = await call(PATCH_LEAD, "PATCH", "", { key: ws.fullKey, params: { id }, body: { email: "mover@ms.test" } });
    expect(toMs.body.espClass).toBe("MICROSOFT");
    const same = await call(PATCH_LEAD, "PATCH", "", {
      key: ws.fullKey,
      params: { id },
      body: { email: "Mover2@ms.test", firstName: "Mo" },
    });
    expect(same.body.espClass).toBe("MICROSOFT");
    const toNew = await call(PATCH_LEAD, "PATCH", "", { key: ws.fullKey, params: { id }, body: { email: "mover@fresh.test" } });
    expect(toNew.body.espClass).toBe("UNKNOWN");
    mx["fresh.test"] = [{ exchange: "fresh-test.mail.protection.outlook.com", priority: 0 }];
    expect(await runEsp()).toMatchObject({ lookedUp: 1, classified: 1 });
    expect(await classOf("mover@fresh.test")).toBe("MICROSOFT");
  });

  it("leaves leads UNKNOWN when DNS does not answer, does not retry on every run, and retries with back-off", async () => {
    // A UDP port nobody listens on: the resolver fails (refused), which is not an answer.
    const sock = createSocket("udp4");
    await new Promise<void>((r) => sock.bind(0, "127.0.0.1", () => r()));
    const deadPort = sock.address().port;
    sock.close();
    process.env.DNS_SERVERS = `127.0.0.1:${deadPort}`;
    process.env.DNS_TIMEOUT_MS = "200";
    try {
      await createLeads(ws, ["p@down.test", "q@down.test"]);
      expect(await runEsp()).toMatchObject({ lookedUp: 1, failed: 1, classified: 0 });
      expect(await classOf("p@down.test")).toBe("UNKNOWN");
      const [row] = await getDb().select().from(leadDomains).where(eq(leadDomains.domain, "down.test"));
      expect(row).toMatchObject({ espClass: "UNKNOWN", failures: 1, checkedAt: null });
      expect(row.error).toBeTruthy();
      expect(row.nextCheckAt.getTime()).toBe(clock.now().getTime() + 15 * 60_000);
      // Parked: not asked again before the retry time.
      clock.advance(60_000);
      expect(await runEsp()).toMatchObject({ lookedUp: 0 });
      clock.advance(15 * 60_000);
      expect(await runEsp()).toMatchObject({ lookedUp: 1, failed: 1 });
      const [again] = await getDb().select().from(leadDomains).where(eq(leadDomains.domain, "down.test"));
      expect(again.failures).toBe(2);
      expect(again.nextCheckAt.getTime()).toBe(clock.now().getTime() + 60 * 60_000);
    } finally {
      process.env.DNS_SERVERS = dns.server;
      delete process.env.DNS_TIMEOUT_MS;
    }
    mx["down.test"] = [{ exchange: "aspmx.l.google.com", priority: 1 }];
    clock.advance(61 * 60_000);
    expect(await runEsp()).toMatchObject({ lookedUp: 1, failed: 0, classified: 2 });
    expect(await classOf("q@down.test")).toBe("GOOGLE");
    const [done] = await getDb().select().from(leadDomains).where(eq(leadDomains.domain, "down.test"));
    expect(done).toMatchObject({ failures: 0, error: null });
  });

  it("re-checks a domain after 30 days: a provider move moves its leads; a domain no lead uses is dropped", async () => {
    mx["other.test"] = [{ exchange: "aspmx.l.google.com", priority: 1 }];
    await getDb().delete(leads).where(eq(leads.email, "f@zo.test"));
    const otherBefore = asked("other.test");
    const zoBefore = asked("zo.test");
    clock.advance(29 * 24 * 3600_000);
    expect(await runEsp()).toMatchObject({ lookedUp: 0 });
    clock.advance(2 * 24 * 3600_000);
    const r = await runEsp();
    expect(r.classified).toBe(1); // g@other.test
    expect(asked("other.test")).toBe(otherBefore + 1);
    expect(asked("zo.test")).toBe(zoBefore);
    expect(await classOf("g@other.test")).toBe("GOOGLE");
    expect(await getDb().select().from(leadDomains).where(eq(leadDomains.domain, "zo.test"))).toEqual([]);
    expect(await classOf("a@goog.test")).toBe("GOOGLE");
  });

  it("makes ESP matching work: a classified lead goes to a mailbox of its class", async () => {
    const g = await insertMailbox(ws.workspaceId, "sender@gsend.test", { espClass: "GOOGLE" });
    const m = await insertMailbox(ws.workspaceId, "sender@msend.test", { espClass: "MICROSOFT" });
    const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "ESP", espMatching: "STRICT" } })).body
      .id as string;
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c }, body: { mailboxIds: [g.id, m.id] } });
    const ids = await createLeads(ws, ["m1@ms.test", "g1@goog.test", "m2@ms.test", "o1@other-new.test"]);
    const r = await call(ADD_TO_CAMPAIGN, "POST", "", { key: ws.fullKey, params: { id: c }, body: { leadIds: ids } });
    // Classified on insert from the cache; a lead at a domain never seen is UNKNOWN and matches any mailbox.
    expect(r.body.results.map((x: { result: string; mailboxId: string }) => [x.result, x.mailboxId])).toEqual([
      ["assigned", m.id],
      ["assigned", g.id],
      ["assigned", m.id],
      ["assigned", expect.any(String)],
    ]);
  });
});
