import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaigns, domains, mailboxes, workspaces } from "@/db/schema";
import { insertMailbox } from "@/test/factories";
import { addMember, call, makeWorkspace, sessionCookie, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer, type Zone } from "@/test/peers/dns";
import { POST as CREATE_CAMPAIGN } from "../campaigns/route";
import { POST as CREATE_STEP } from "../campaigns/[id]/steps/route";
import { DELETE as DELETE_STEP } from "../campaigns/[id]/steps/[stepId]/route";
import { PATCH as STATUS } from "../campaigns/[id]/status/route";
import { POST as CHECK_DOMAIN } from "../domains/[id]/check/route";
import { POST as CREATE_LEADS } from "../leads/route";
import { PATCH as PATCH_MAILBOX } from "../mailboxes/[id]/route";
import { POST as START_WARMUP } from "../mailboxes/[id]/start-warmup/route";
import { POST as STOP_WARMUP } from "../mailboxes/[id]/stop-warmup/route";
import { DELETE as UNDISMISS, POST as DISMISS } from "./dismiss/route";
import { GET } from "./route";

/** Real DNS answers for the domain checks: one domain publishing all three records, one with DMARC p=none, one with nothing. */
const zone: Zone = {
  TXT: {
    "ready.test": ["v=spf1 ip4:192.0.2.0/24 -all"],
    "default._domainkey.ready.test": ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest"],
    "_dmarc.ready.test": ["v=DMARC1; p=reject"],
    "weak.test": ["v=spf1 ip4:192.0.2.0/24 -all"],
    "default._domainkey.weak.test": ["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest"],
    "_dmarc.weak.test": ["v=DMARC1; p=none"],
  },
};

let dns: Awaited<ReturnType<typeof startDnsPeer>>;
beforeAll(async () => {
  dns = await startDnsPeer(zone);
  process.env.DNS_SERVERS = dns.server;
});
afterAll(() => {
  dns.close();
  delete process.env.DNS_SERVERS;
});

const checklist = async (key: string) => {
  const r = await call(GET, "GET", "/onboarding", { key });
  expect(r.status).toBe(200);
  return r.body as { items: { id: string; done: boolean; href: string; detail: string | null }[]; dismissed: boolean; complete: boolean };
};
const done = async (key: string) => Object.fromEntries((await checklist(key)).items.map((i) => [i.id, i.done]));
const item = async (key: string, id: string) => (await checklist(key)).items.find((i) => i.id === id)!;
const p = (id: string, extra: Record<string, string> = {}) => ({ params: { id, ...extra } });

describe("GET /onboarding: each item ticks from the workspace's own data", () => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace();
  });

  it("starts with nothing done, the six items in order, each linking to the page that does it", async () => {
    const c = await checklist(ws.fullKey);
    expect(c.items.map((i) => [i.id, i.done, i.href])).toEqual([
      ["mailbox", false, "/mailboxes"],
      ["dns", false, "/domains"],
      ["warmup", false, "/mailboxes"],
      ["leads", false, "/leads"],
      ["campaign", false, "/campaigns"],
      ["launch", false, "/campaigns"],
    ]);
    expect(c).toMatchObject({ dismissed: false, complete: false });
  });

  it("ticks the mailbox when one is connected; a seed mailbox (it only receives) does not count", async () => {
    await insertMailbox(ws.workspaceId, "seed@seeds.test", { isSeed: true });
    expect((await done(ws.fullKey)).mailbox).toBe(false);
    await insertMailbox(ws.workspaceId, "sam@ready.test");
    expect(await item(ws.fullKey, "mailbox")).toMatchObject({ done: true, detail: "1 mailbox connected" });
  });

  it("ticks DNS once the domain check found SPF, DKIM and DMARC on every sending domain (p=none counts as found)", async () => {
    const check = (id: string) => call(CHECK_DOMAIN, "POST", `/domains/${id}/check`, { key: ws.fullKey, ...p(id) });
    const [sam] = await getDb().select().from(mailboxes).where(eq(mailboxes.email, "sam@ready.test"));
    expect(await item(ws.fullKey, "dns")).toMatchObject({ done: false, detail: "0 of 1 domain publish all three" }); // not checked yet
    expect((await check(sam.domainId)).status).toBe(200);
    expect(await item(ws.fullKey, "dns")).toMatchObject({ done: true, detail: "1 of 1 domain publish all three" });

    // A second sending domain without any record: not done until it publishes them too (or its mailbox goes).
    const bare = await insertMailbox(ws.workspaceId, "sam@bare.test");
    await check(bare.domainId);
    expect(await item(ws.fullKey, "dns")).toMatchObject({ done: false, detail: "1 of 2 domains publish all three" });
    await getDb().delete(mailboxes).where(eq(mailboxes.id, bare.id));
    expect((await done(ws.fullKey)).dns).toBe(true);

    const weak = await insertMailbox(ws.workspaceId, "sam@weak.test");
    expect((await check(weak.domainId)).body.dmarcStatus).toBe("WARN");
    expect(await item(ws.fullKey, "dns")).toMatchObject({ done: true, detail: "2 of 2 domains publish all three" });

    // A warning without a record is a look-up that failed: nothing was found.
    const [d] = await getDb().select().from(domains).where(eq(domains.id, weak.domainId));
    const checks = { ...d.checks, dmarc: { status: "WARN", record: null, reason: "Could not read the DMARC record: SERVFAIL" } };
    await getDb().update(domains).set({ checks }).where(eq(domains.id, d.id));
    expect(await item(ws.fullKey, "dns")).toMatchObject({ done: false, detail: "1 of 2 domains publish all three" });
    await check(weak.domainId);
    expect((await done(ws.fullKey)).dns).toBe(true);
  });

  it("ticks warmup once a mailbox's warmup was started (a pause keeps it), or a mailbox is marked already warm", async () => {
    const other = await makeWorkspace();
    const m = await insertMailbox(other.workspaceId, "warm@warm-onb.test");
    expect((await done(other.fullKey)).warmup).toBe(false);
    expect((await call(START_WARMUP, "POST", "", { key: other.fullKey, ...p(m.id), body: {} })).status).toBe(200);
    expect((await done(other.fullKey)).warmup).toBe(true);
    await call(STOP_WARMUP, "POST", "", { key: other.fullKey, ...p(m.id), body: {} });
    expect((await done(other.fullKey)).warmup).toBe(true);

    const third = await makeWorkspace();
    const warm = await insertMailbox(third.workspaceId, "old@warm-onb.test");
    expect((await done(third.fullKey)).warmup).toBe(false);
    await call(PATCH_MAILBOX, "PATCH", "", { key: third.fullKey, ...p(warm.id), body: { assumedWarm: true } });
    expect((await done(third.fullKey)).warmup).toBe(true);
  });

  it("ticks leads once the workspace has one", async () => {
    expect((await done(ws.fullKey)).leads).toBe(false);
    const r = await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "lin@onb.test" }] } });
    expect(r.status).toBe(200);
    expect((await done(ws.fullKey)).leads).toBe(true);
  });

  it("ticks the campaign only once it has a step, pointing first at the draft's sequence, and unticks when the step goes", async () => {
    const c = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name: "Onboarding" } })).body;
    expect(await item(ws.fullKey, "campaign")).toMatchObject({ done: false, href: `/campaigns/${c.id}?tab=sequence` });
    const step = await call(CREATE_STEP, "POST", "", { key: ws.fullKey, ...p(c.id), body: { subject: "Hi", bodyTemplate: "Hello" } });
    expect(step.status).toBe(201);
    expect(await item(ws.fullKey, "campaign")).toMatchObject({ done: true, href: "/campaigns" });
    expect(await item(ws.fullKey, "launch")).toMatchObject({ done: false, href: `/campaigns/${c.id}` });
    await call(DELETE_STEP, "DELETE", "", { key: ws.fullKey, ...p(c.id, { stepId: step.body.id }) });
    expect((await done(ws.fullKey)).campaign).toBe(false);
    await call(CREATE_STEP, "POST", "", { key: ws.fullKey, ...p(c.id), body: { subject: "Hi", bodyTemplate: "Hello" } });
  });

  it("ticks launch when a campaign goes active (and keeps it paused), and is complete once everything is done", async () => {
    const [c] = await getDb().select().from(campaigns).where(eq(campaigns.workspaceId, ws.workspaceId));
    await call(START_WARMUP, "POST", "", {
      key: ws.fullKey,
      ...p((await insertMailbox(ws.workspaceId, "warm@ready.test")).id),
      body: {},
    });
    expect(await checklist(ws.fullKey)).toMatchObject({ complete: false });
    const r = await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "ACTIVE", confirm: true } });
    expect(r.status).toBe(200);
    expect(await checklist(ws.fullKey)).toMatchObject({ complete: true });
    await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "PAUSED" } });
    expect((await done(ws.fullKey)).launch).toBe(true);
    await call(STATUS, "PATCH", "", { key: ws.fullKey, ...p(c.id), body: { status: "ARCHIVED" } });
    expect((await done(ws.fullKey)).launch).toBe(false);
    await getDb().update(campaigns).set({ firstSentAt: new Date() }).where(eq(campaigns.id, c.id));
    expect((await done(ws.fullKey)).launch).toBe(true);
  });
});

describe("dismissing the checklist", () => {
  it("hides it for the whole workspace, keeps the first dismissal, and brings it back; the other settings stay", async () => {
    const ws = await makeWorkspace();
    await getDb()
      .update(workspaces)
      .set({ settings: { requireTwoFactor: false, branding: { name: "Acme" } } })
      .where(eq(workspaces.id, ws.workspaceId));
    const member = await addMember(ws.workspaceId, "member");
    const first = await call(DISMISS, "POST", "/onboarding/dismiss", { key: member.key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ dismissed: true, complete: false });
    expect((await checklist(ws.fullKey)).dismissed).toBe(true); // the owner sees it dismissed too
    const [w1] = await getDb().select().from(workspaces).where(eq(workspaces.id, ws.workspaceId));
    expect(w1.settings).toMatchObject({ requireTwoFactor: false, branding: { name: "Acme" }, onboarding: { dismissedBy: member.userId } });

    await call(DISMISS, "POST", "/onboarding/dismiss", { key: ws.fullKey });
    const [w2] = await getDb().select().from(workspaces).where(eq(workspaces.id, ws.workspaceId));
    expect(w2.settings.onboarding).toEqual(w1.settings.onboarding);

    const back = await call(UNDISMISS, "DELETE", "/onboarding/dismiss", { key: ws.fullKey });
    expect(back.status).toBe(200);
    expect(back.body.dismissed).toBe(false);
    expect((await checklist(member.key)).dismissed).toBe(false);
  });

  it("works from a dashboard session, and is the workspace's own: another workspace's checklist stays shown", async () => {
    const ws = await makeWorkspace();
    const other = await makeWorkspace();
    const cookie = await sessionCookie(ws.userId);
    expect((await call(DISMISS, "POST", "/onboarding/dismiss", { cookie })).body.dismissed).toBe(true);
    expect((await call(GET, "GET", "/onboarding", { cookie })).body.dismissed).toBe(true);
    expect((await checklist(other.fullKey)).dismissed).toBe(false);
  });

  it("is for members and up: a client seat is refused the checklist and the dismissal; a read-only key cannot dismiss", async () => {
    const ws = await makeWorkspace();
    const client = await addMember(ws.workspaceId, "client");
    expect((await call(GET, "GET", "/onboarding", { key: client.key })).status).toBe(403);
    expect((await call(DISMISS, "POST", "/onboarding/dismiss", { key: client.key })).status).toBe(403);
    expect((await call(UNDISMISS, "DELETE", "/onboarding/dismiss", { key: client.key })).status).toBe(403);
    expect((await call(GET, "GET", "/onboarding", { key: ws.readKey })).status).toBe(200);
    expect((await call(DISMISS, "POST", "/onboarding/dismiss", { key: ws.readKey })).status).toBe(403);
    expect((await checklist(ws.fullKey)).dismissed).toBe(false);
  });
});
