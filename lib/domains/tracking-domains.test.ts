import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog, trackingDomains } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { addMember, call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer, type Zone } from "@/test/peers/dns";
import { GET as LIST, POST as ADD } from "@/app/api/v1/settings/tracking-domains/route";
import { DELETE, PATCH } from "@/app/api/v1/settings/tracking-domains/[id]/route";
import { POST as VERIFY } from "@/app/api/v1/settings/tracking-domains/[id]/verify/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { GET as GET_CAMPAIGN, PATCH as PATCH_CAMPAIGN } from "@/app/api/v1/campaigns/[id]/route";
import { runTrackingDomainChecks, TRACKING_RECHECK_MS } from "./tracking-recheck";

const APP = "app.outreach.test";
const zone: Zone = {
  CNAME: { "track.one.test": APP, "track.two.test": APP, "links.one.test": "elsewhere.test", "shared.test": APP, "gone.one.test": APP },
  A: { [APP]: ["192.0.2.10"], "flat.one.test": ["192.0.2.10"], "other.one.test": ["198.51.100.7"], "elsewhere.test": ["198.51.100.8"] },
};
const saved = { APP_URL: process.env.APP_URL, DNS_SERVERS: process.env.DNS_SERVERS };
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
let one: TestWorkspace;
let two: TestWorkspace;

beforeAll(async () => {
  dns = await startDnsPeer(zone);
  process.env.DNS_SERVERS = dns.server;
  process.env.APP_URL = `https://${APP}`;
  [one, two] = await Promise.all([makeWorkspace(), makeWorkspace()]);
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await dns.close();
});

const add = (key: string, domain: unknown) => call(ADD, "POST", "/settings/tracking-domains", { key, body: { domain } });
const verify = (key: string, id: string) => call(VERIFY, "POST", "", { key, params: { id } });
const patch = (key: string, id: string, isDefault: boolean) => call(PATCH, "PATCH", "", { key, params: { id }, body: { isDefault } });
const list = async (key: string) => (await call(LIST, "GET", "/settings/tracking-domains", { key })).body.domains as any[];

describe("adding tracking domains", () => {
  it("adds a lower-cased host PENDING with APP_URL's host as the CNAME target, audited as settings.changed", async () => {
    const r = await add(one.fullKey, "Track.One.Test.");
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ domain: "track.one.test", cnameTarget: APP, status: "PENDING", verifiedAt: null, isDefault: false });
    expect(r.body.id).toMatch(/^tdm_/);
    expect((await list(one.fullKey)).map((d) => d.domain)).toEqual(["track.one.test"]);
    const logged = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, one.workspaceId), eq(auditLog.action, "settings.changed")));
    expect(logged.map((l) => l.targetLabel)).toContain("track.one.test");
  });

  it("refuses what is not a host name with a 400 VALIDATION_ERROR on domain", async () => {
    for (const bad of [
      "https://track.x.test",
      "track.x.test/path",
      "track.x.test:8080",
      "localhost",
      "-a.x.test",
      "192.0.2.1",
      APP,
      "a b.test",
    ]) {
      const r = await add(one.fullKey, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(r.body.details), bad).toContain("domain");
    }
  });

  it("409s the same domain twice in a workspace, and a domain another workspace has verified", async () => {
    expect((await add(one.fullKey, "track.one.test")).status).toBe(409);
    const shared = await add(one.fullKey, "shared.test");
    expect((await verify(one.fullKey, shared.body.id)).body.status).toBe("VERIFIED");
    const taken = await add(two.fullKey, "shared.test");
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("CONFLICT");
    // Not verified by anyone yet: another workspace may add it too (whoever verifies first keeps it).
    expect((await add(two.fullKey, "track.one.test")).status).toBe(201);
  });

  it("lets members read but only owners and admins change", async () => {
    const member = await addMember(one.workspaceId, "member");
    expect((await call(LIST, "GET", "/settings/tracking-domains", { key: member.key })).status).toBe(200);
    expect((await add(member.key, "member.one.test")).status).toBe(403);
    const admin = await addMember(one.workspaceId, "admin");
    expect((await add(admin.key, "admin.one.test")).status).toBe(201);
  });
});

describe("verifying through DNS", () => {
  it("VERIFIED on a CNAME to the target, or on the target's own addresses; FAILING says what the DNS answered", async () => {
    const cname = (await list(one.fullKey)).find((d) => d.domain === "track.one.test");
    const ok = await verify(one.fullKey, cname.id);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "VERIFIED", lastError: null });
    expect(ok.body.verifiedAt).toBeTruthy();

    const flat = await add(one.fullKey, "flat.one.test");
    expect((await verify(one.fullKey, flat.body.id)).body.status).toBe("VERIFIED");

    const wrong = await add(one.fullKey, "links.one.test");
    const failed = await verify(one.fullKey, wrong.body.id);
    expect(failed.body).toMatchObject({ status: "FAILING", verifiedAt: null });
    expect(failed.body.lastError).toContain("its CNAME is elsewhere.test, not app.outreach.test");

    const other = await add(one.fullKey, "other.one.test");
    expect((await verify(one.fullKey, other.body.id)).body.lastError).toContain("198.51.100.7");

    const none = await add(one.fullKey, "nothing.one.test");
    const nx = await verify(one.fullKey, none.body.id);
    expect(nx.body.status).toBe("FAILING");
    expect(nx.body.lastError).toContain("no CNAME record");
  });

  it("409s verifying a domain another workspace holds", async () => {
    const mine = (await list(two.fullKey)).find((d) => d.domain === "track.one.test");
    const r = await verify(two.fullKey, mine.id);
    expect(r.status).toBe(409);
    expect((await list(two.fullKey)).find((d) => d.id === mine.id).status).toBe("PENDING");
  });

  it("404s another workspace's domain", async () => {
    const theirs = (await list(one.fullKey))[0];
    expect((await verify(two.fullKey, theirs.id)).status).toBe(404);
    expect((await call(DELETE, "DELETE", "", { key: two.fullKey, params: { id: theirs.id } })).status).toBe(404);
  });
});

describe("the default", () => {
  it("only a VERIFIED domain becomes the default; setting one unsets the other", async () => {
    const ds = await list(one.fullKey);
    const byName = (n: string) => ds.find((d) => d.domain === n);
    const refused = await patch(one.fullKey, byName("links.one.test").id, true);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.details)).toContain("isDefault");
    expect((await patch(one.fullKey, byName("track.one.test").id, true)).body.isDefault).toBe(true);
    expect((await patch(one.fullKey, byName("flat.one.test").id, true)).body.isDefault).toBe(true);
    const after = await list(one.fullKey);
    expect(after.filter((d) => d.isDefault).map((d) => d.domain)).toEqual(["flat.one.test"]);
    expect((await patch(one.fullKey, byName("flat.one.test").id, false)).body.isDefault).toBe(false);
    expect((await list(one.fullKey)).some((d) => d.isDefault)).toBe(false);
  });
});

describe("a campaign's trackingDomainId", () => {
  it("takes one of the workspace's domains, refuses another workspace's with a 400 VALIDATION_ERROR, and falls back to null when the domain is deleted", async () => {
    const mine = (await list(one.fullKey)).find((d) => d.domain === "track.one.test");
    const theirs = (await list(two.fullKey))[0];
    const created = await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
      key: one.fullKey,
      body: { name: "Tracked", trackingDomainId: mine.id },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.trackingDomainId).toBe(mine.id);
    const id = created.body.id as string;
    const refused = await call(PATCH_CAMPAIGN, "PATCH", "", { key: one.fullKey, params: { id }, body: { trackingDomainId: theirs.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(refused.body.details)).toContain("trackingDomainId");
    expect(
      (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: one.fullKey, body: { name: "X", trackingDomainId: "tdm_nope" } })).status,
    ).toBe(400);

    const gone = await add(one.fullKey, "gone.one.test");
    await call(PATCH_CAMPAIGN, "PATCH", "", { key: one.fullKey, params: { id }, body: { trackingDomainId: gone.body.id } });
    expect((await call(DELETE, "DELETE", "", { key: one.fullKey, params: { id: gone.body.id } })).body).toEqual({
      deleted: true,
      id: gone.body.id,
    });
    expect((await call(GET_CAMPAIGN, "GET", "", { key: one.fullKey, params: { id } })).body.trackingDomainId).toBeNull();
  });
});

describe("the periodic re-check", () => {
  it("turns a verified domain whose CNAME disappeared FAILING, and back once it returns; PENDING ones wait", async () => {
    const ws = await makeWorkspace();
    const r = await add(ws.fullKey, "recheck.one.test");
    zone.CNAME!["recheck.one.test"] = APP;
    await verify(ws.fullKey, r.body.id);
    const later = new ManualClock(new Date(Date.now() + TRACKING_RECHECK_MS + 60_000));
    delete zone.CNAME!["recheck.one.test"];
    const ctx = { ...systemCtx(undefined, { clock: later }) };
    const run = await runTrackingDomainChecks(ctx);
    expect(run.checked).toBeGreaterThanOrEqual(1);
    const [row] = await getDb().select().from(trackingDomains).where(eq(trackingDomains.id, r.body.id));
    expect(row.status).toBe("FAILING");
    expect(row.lastError).toContain("no CNAME record");
    expect(row.verifiedAt).not.toBeNull();
    // Within the interval nothing is asked again; after it, the returned CNAME verifies it again.
    zone.CNAME!["recheck.one.test"] = APP;
    await runTrackingDomainChecks(ctx);
    expect((await getDb().select().from(trackingDomains).where(eq(trackingDomains.id, r.body.id)))[0].status).toBe("FAILING");
    const muchLater = new ManualClock(new Date(later.now().getTime() + TRACKING_RECHECK_MS + 60_000));
    await runTrackingDomainChecks({ ...systemCtx(undefined, { clock: muchLater }) });
    expect((await getDb().select().from(trackingDomains).where(eq(trackingDomains.id, r.body.id)))[0].status).toBe("VERIFIED");
  });

  it("keeps a VERIFIED domain in use when the DNS does not answer at all, noting the error", async () => {
    const ws = await makeWorkspace();
    zone.CNAME!["quiet.one.test"] = APP;
    const r = await add(ws.fullKey, "quiet.one.test");
    expect((await verify(ws.fullKey, r.body.id)).body.status).toBe("VERIFIED");
    const before = { servers: process.env.DNS_SERVERS, timeout: process.env.DNS_TIMEOUT_MS };
    // A port nobody answers on: every look-up fails without an answer.
    process.env.DNS_SERVERS = "127.0.0.1:9";
    process.env.DNS_TIMEOUT_MS = "200";
    try {
      const later = new ManualClock(new Date(Date.now() + 10 * TRACKING_RECHECK_MS));
      await runTrackingDomainChecks({ ...systemCtx(undefined, { clock: later }) });
    } finally {
      process.env.DNS_SERVERS = before.servers;
      if (before.timeout === undefined) delete process.env.DNS_TIMEOUT_MS;
      else process.env.DNS_TIMEOUT_MS = before.timeout;
    }
    const [row] = await getDb().select().from(trackingDomains).where(eq(trackingDomains.id, r.body.id));
    expect(row.status).toBe("VERIFIED");
    expect(row.lastError).toContain("look-up failed");
  });
});
