import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as DELETE_DOMAIN } from "@/app/api/v1/domains/[id]/route";
import { PATCH } from "@/app/api/v1/mailboxes/[id]/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { getDb } from "@/db/client";
import { alerts, domains, emails, mailboxes } from "@/db/schema";
import { LocalRunner } from "@/inngest/runner";
import { mailboxHealthJob } from "@/inngest/functions/mailbox-health";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { runDomainCheck } from "@/lib/domains/domains";
import { ensureDomain } from "@/lib/domains/ensure-domain";
import { newId } from "@/lib/ids";
import { recordSyncFailure, recordSyncRecovered } from "@/lib/inbox/sync/failures";
import { checkBounceSpike } from "@/lib/sending/engine/bounce-spike";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import type { Zone } from "@/test/peers/dns";

/**
 * The jobs that see a condition raise its alert once and resolve it when it ends: the bounce policy, the login health check, the inbox sync and the domain checks.
 */

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
const MIN = 60_000;
const zone: Zone = { TXT: {}, MX: {}, A: {} };

beforeAll(async () => {
  process.env.MAILBOX_CHECK_INTERVAL_S = "300";
  process.env.DNSBL_DOMAIN_ZONES = "dbl.test";
  process.env.DNSBL_IP_ZONES = "zen.test";
  world = await startMailWorld({ domain: "acme.test", users: { "ann@acme.test": "pw-one" }, zone });
  ws = await makeWorkspace();
  useClock(clock);
  const r = await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: "ann@acme.test" }, body: { appPassword: "pw-one" } });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  useClock(systemClock);
  await world.close();
  delete process.env.DNSBL_DOMAIN_ZONES;
  delete process.env.DNSBL_IP_ZONES;
});

async function alertsOf(kind: (typeof alerts.$inferSelect)["kind"], subject: string) {
  return getDb()
    .select()
    .from(alerts)
    .where(and(eq(alerts.workspaceId, ws.workspaceId), eq(alerts.kind, kind), eq(alerts.subject, subject)))
    .orderBy(alerts.seq);
}
const healthRun = () => new LocalRunner(getDb(), clock, [mailboxHealthJob]).tick();
const mailbox = async (email: string) => (await getDb().select().from(mailboxes).where(eq(mailboxes.email, email)))[0];

describe("LOGIN_FAILING and READ_FAILING from the mailbox health check", () => {
  it("raises LOGIN_FAILING once per outage with the server's words and resolves it when the login works again", async () => {
    const ann = await mailbox("ann@acme.test");
    world.smtp.setPassword("ann@acme.test", "changed");
    clock.advance(301_000);
    await healthRun();
    clock.advance(301_000);
    await healthRun(); // still failing: the same alert
    const [a, ...more] = await alertsOf("LOGIN_FAILING", ann.id);
    expect(more).toEqual([]);
    expect(a).toMatchObject({ mailboxId: ann.id, severity: "critical", resolvedAt: null });
    expect(a.message).toContain("535");
    world.smtp.setPassword("ann@acme.test", "pw-one");
    clock.advance(301_000);
    await healthRun();
    expect((await alertsOf("LOGIN_FAILING", ann.id)).map((x) => x.resolvedAt?.toISOString())).toEqual([clock.now().toISOString()]);
  });

  it("raises READ_FAILING only after 30 minutes of unreadable IMAP, and resolves it when reading works", async () => {
    const ann = await mailbox("ann@acme.test");
    world.imap.setPassword("ann@acme.test", "imap-changed");
    for (let i = 0; i < 7; i++) {
      clock.advance(301_000);
      await healthRun();
      // The first failure, then 5 min … 25 min after it: no alert yet; at 30 min: raised.
      if (i < 6) expect(await alertsOf("READ_FAILING", ann.id)).toEqual([]);
    }
    expect(await alertsOf("READ_FAILING", ann.id)).toMatchObject([{ severity: "warning", resolvedAt: null }]);
    world.imap.setPassword("ann@acme.test", "pw-one");
    clock.advance(301_000);
    await healthRun();
    expect((await alertsOf("READ_FAILING", ann.id))[0].resolvedAt).toEqual(clock.now());
  });
});

describe("READ_FAILING from the inbox sync", () => {
  it("raises it when a sync fails 30 minutes after the first failure, not before, and resolves it on a good sync", async () => {
    const m = await insertMailbox(ws.workspaceId, "sync@acme.test");
    const start = clock.now();
    await recordSyncFailure(getDb(), start, m.id, new Error("IMAP down"), 0);
    await recordSyncFailure(getDb(), new Date(start.getTime() + 29 * MIN), m.id, new Error("IMAP down"), 0);
    expect(await alertsOf("READ_FAILING", m.id)).toEqual([]);
    await recordSyncFailure(getDb(), new Date(start.getTime() + 31 * MIN), m.id, new Error("IMAP down"), 0);
    await recordSyncFailure(getDb(), new Date(start.getTime() + 36 * MIN), m.id, new Error("IMAP down"), 0);
    const raised = await alertsOf("READ_FAILING", m.id);
    expect(raised).toHaveLength(1);
    expect(raised[0].message).toContain("IMAP down");
    await recordSyncRecovered(getDb(), m.id, new Date(start.getTime() + 40 * MIN));
    expect((await alertsOf("READ_FAILING", m.id))[0].resolvedAt).toEqual(new Date(start.getTime() + 40 * MIN));
  });

  it("raises nothing for a mailbox the user paused, and closes its open one", async () => {
    const m = await insertMailbox(ws.workspaceId, "quiet@acme.test");
    const start = clock.now();
    await recordSyncFailure(getDb(), start, m.id, new Error("down"), 0);
    await recordSyncFailure(getDb(), new Date(start.getTime() + 31 * MIN), m.id, new Error("down"), 0);
    expect(await alertsOf("READ_FAILING", m.id)).toHaveLength(1);
    await getDb().update(mailboxes).set({ sendingEnabled: false }).where(eq(mailboxes.id, m.id));
    await healthRun(); // the reconcile pass
    expect((await alertsOf("READ_FAILING", m.id))[0].resolvedAt).not.toBeNull();
    await recordSyncFailure(getDb(), new Date(start.getTime() + 40 * MIN), m.id, new Error("down"), 0);
    expect((await alertsOf("READ_FAILING", m.id)).filter((a) => !a.resolvedAt)).toEqual([]);
  });
});

describe("BOUNCE_SPIKE from the bounce policy", () => {
  it("is raised once when the policy pauses the mailbox and resolved when the user un-pauses it", async () => {
    const m = await insertMailbox(ws.workspaceId, "bouncy@acme.test");
    const now = clock.now();
    const row = (status: "SENT" | "BOUNCED") => ({
      id: newId("eml"),
      workspaceId: ws.workspaceId,
      mailboxId: m.id,
      leadEmail: `${newId("lead")}@x.test`,
      campaignId: "cmp_x",
      messageId: `<${newId("eml")}@acme.test>`,
      subject: "Hi",
      status,
      createdAt: now,
    });
    await getDb()
      .insert(emails)
      .values([row("SENT"), row("SENT"), row("BOUNCED"), row("BOUNCED")]);
    await checkBounceSpike(getDb(), m, now);
    await checkBounceSpike(getDb(), m, now); // already paused: nothing new
    const [a, ...more] = await alertsOf("BOUNCE_SPIKE", m.id);
    expect(more).toEqual([]);
    expect(a.message).toContain("50.0%");
    await healthRun(); // still paused: stays open
    expect((await alertsOf("BOUNCE_SPIKE", m.id))[0].resolvedAt).toBeNull();
    const r = await call(PATCH, "PATCH", "", { key: ws.fullKey, params: { id: m.id }, body: { sendingEnabled: true } });
    expect(r.status).toBe(200);
    await healthRun();
    expect((await alertsOf("BOUNCE_SPIKE", m.id))[0].resolvedAt).toEqual(clock.now());
  });
});

describe("DNS_FAILING and BLACKLISTED from the domain checks", () => {
  it("raises DNS_FAILING for a FAIL or MISSING record and resolves it when all are PASS or WARN", async () => {
    const id = await ensureDomain(getDb(), ws.workspaceId, "dns.test");
    const d = async () => (await getDb().select().from(domains).where(eq(domains.id, id)))[0];
    await runDomainCheck(getDb(), await d(), clock.now());
    const [a] = await alertsOf("DNS_FAILING", "dns.test");
    expect(a).toMatchObject({ domain: "dns.test", resolvedAt: null });
    expect(a.message).toMatch(/SPF MISSING.*DKIM MISSING.*DMARC MISSING.*MX MISSING/);
    zone.TXT!["dns.test"] = ["v=spf1 mx -all"];
    zone.TXT!["default._domainkey.dns.test"] = ["v=DKIM1; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDtestkey"];
    zone.TXT!["_dmarc.dns.test"] = ["v=DMARC1; p=none"]; // WARN is fine
    await runDomainCheck(getDb(), await d(), clock.now());
    expect((await alertsOf("DNS_FAILING", "dns.test"))[0].message).toMatch(/^dns.test: MX MISSING/);
    zone.MX!["dns.test"] = [{ exchange: "mx.dns.test", priority: 10 }];
    await runDomainCheck(getDb(), await d(), clock.now());
    expect((await alertsOf("DNS_FAILING", "dns.test")).map((x) => x.resolvedAt)).toEqual([clock.now()]);
  });

  it("raises BLACKLISTED when the domain check finds the domain listed and resolves it on a clean check", async () => {
    const id = await ensureDomain(getDb(), ws.workspaceId, "spammy.test");
    const d = async () => (await getDb().select().from(domains).where(eq(domains.id, id)))[0];
    zone.A!["spammy.test.dbl.test"] = ["127.0.1.2"];
    await runDomainCheck(getDb(), await d(), clock.now());
    expect((await d()).blacklistStatus).toBe("FAIL");
    const [a] = await alertsOf("BLACKLISTED", "spammy.test");
    expect(a.message).toContain("dbl.test");
    delete zone.A!["spammy.test.dbl.test"];
    clock.advance(MIN);
    await runDomainCheck(getDb(), await d(), clock.now());
    expect((await alertsOf("BLACKLISTED", "spammy.test")).map((x) => x.resolvedAt)).toEqual([clock.now()]);
  });

  it("closes a deleted domain's alerts", async () => {
    const id = await ensureDomain(getDb(), ws.workspaceId, "gone.test");
    const [d] = await getDb().select().from(domains).where(eq(domains.id, id));
    await runDomainCheck(getDb(), d, clock.now());
    expect((await alertsOf("DNS_FAILING", "gone.test"))[0].resolvedAt).toBeNull();
    clock.advance(MIN);
    expect((await call(DELETE_DOMAIN, "DELETE", "", { key: ws.fullKey, params: { id } })).status).toBe(200);
    expect((await alertsOf("DNS_FAILING", "gone.test"))[0].resolvedAt).toEqual(clock.now());
  });
});
