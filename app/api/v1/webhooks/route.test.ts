import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { emitEvent } from "@/lib/events/emit";
import { deliverDue } from "@/lib/webhooks/deliver";
import { dispatchEvents } from "@/lib/webhooks/dispatch";
import { cleanupDeliveries } from "@/lib/webhooks/record";
import { verifySignature } from "@/lib/webhooks/signing";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startDnsPeer } from "@/test/peers/dns";
import { startHttpPeer } from "@/test/peers/http";
import { GET as LIST, POST as CREATE } from "./route";
import { DELETE, GET as GET_ONE, PATCH } from "./[id]/route";
import { POST as TEST } from "./[id]/test/route";
import { POST as ROTATE } from "./[id]/rotate-secret/route";
import { GET as DELIVERIES } from "./[id]/deliveries/route";
import { POST as RESEND } from "./[id]/deliveries/[deliveryId]/resend/route";

let ws: TestWorkspace;
let receiver: Awaited<ReturnType<typeof startHttpPeer>>;
let canary: Awaited<ReturnType<typeof startHttpPeer>>;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));

beforeAll(async () => {
  // Receivers on 127.0.0.1 are allowed for the tests; the canary on 127.0.0.2 is not.
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  receiver = await startHttpPeer("127.0.0.1");
  canary = await startHttpPeer("127.0.0.2");
  dns = await startDnsPeer({ A: { "hooks.example.test": ["93.184.216.34"], "rebind.example.test": ["93.184.216.34"] } });
  process.env.DNS_SERVERS = dns.server;
  ws = await makeWorkspace();
  useClock(clock);
});
afterAll(async () => {
  useClock(systemClock);
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  delete process.env.DNS_SERVERS;
  await receiver.close();
  await canary.close();
  dns.close();
});
afterEach(() => receiver.setResponder(() => ({ status: 200, body: "ok" })));

const p = (id: string, extra: Record<string, string> = {}) => ({ params: { id, ...extra } });
async function create(body: Record<string, unknown>) {
  return call(CREATE, "POST", "/webhooks", { key: ws.fullKey, body });
}
async function emit(event: Parameters<typeof emitEvent>[2], data: Record<string, unknown>) {
  return getDb().transaction((tx) => emitEvent(tx, ws.workspaceId, event, data, clock.now()));
}
async function pump() {
  await dispatchEvents(getDb(), clock);
  return deliverDue(getDb(), clock);
}

describe("webhook API", () => {
  it("shows the secret once, never in lists, and PATCH keeps id, secret and log", async () => {
    const r = await create({ url: receiver.url(), events: ["email.sent", "email.replied"] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      url: receiver.url(),
      events: ["email.sent", "email.replied"],
      active: true,
      retryAttempts: 3,
      timeoutMs: 10000,
    });
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await call(LIST, "GET", "/webhooks", { key: ws.readKey });
    expect(JSON.stringify(list.body)).not.toContain(r.body.secret);
    expect(JSON.stringify(await call(GET_ONE, "GET", "", { key: ws.readKey, ...p(r.body.id) }))).not.toContain('secret"');
    const patched = await call(PATCH, "PATCH", "", { key: ws.fullKey, ...p(r.body.id), body: { retryAttempts: 5 } });
    expect(patched.body).toMatchObject({ id: r.body.id, retryAttempts: 5, events: ["email.sent", "email.replied"], url: receiver.url() });
    for (const bad of [
      { retryAttempts: 0 },
      { retryAttempts: 11 },
      { timeoutMs: 999 },
      { timeoutMs: 30001 },
      { events: ["email.nope"] },
      { events: [] },
    ]) {
      expect((await call(PATCH, "PATCH", "", { key: ws.fullKey, ...p(r.body.id), body: bad })).status).toBe(400);
    }
    // The secret survives a PATCH: deliveries still verify with the one shown at creation.
    await emit("email.sent", { sendEventId: "e1", leadEmail: "l@x.test", mailboxEmail: "m@x.test" });
    await pump();
    const got = receiver.received.at(-1)!;
    expect(
      verifySignature({
        secret: r.body.secret,
        header: got.headers["x-service-signature"] as string,
        timestamp: got.headers["x-service-timestamp"] as string,
        body: got.body,
        nowSeconds: Math.floor(clock.now().getTime() / 1000),
      }),
    ).toBe(true);
    await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(r.body.id) });
    expect((await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, r.body.id))).length).toBe(0);
  });
});

describe("delivery", () => {
  it("POSTs the event envelope with the signed headers to subscribed, active webhooks only", async () => {
    const sub = (await create({ url: receiver.url("/sub"), events: ["email.replied"] })).body;
    const other = (await create({ url: receiver.url("/other"), events: ["email.opened"] })).body;
    const paused = (await create({ url: receiver.url("/paused"), events: ["email.replied"], active: false })).body;
    const before = receiver.received.length;
    const eventId = await emit("email.replied", { replyId: "rep_1", leadId: "lead_1", intentClassification: "INTERESTED" });
    await pump();
    const got = receiver.received.slice(before);
    expect(got.map((g) => g.url)).toEqual(["/sub"]);
    const body = JSON.parse(got[0].body);
    expect(body).toEqual({
      id: eventId,
      event: "email.replied",
      createdAt: clock.now().toISOString(),
      data: { replyId: "rep_1", leadId: "lead_1", intentClassification: "INTERESTED" },
    });
    expect(got[0].headers).toMatchObject({
      "x-service-event": "email.replied",
      "x-service-event-id": eventId,
      "x-service-timestamp": String(Math.floor(clock.now().getTime() / 1000)),
      "content-type": "application/json",
    });
    expect(got[0].headers["x-service-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(
      verifySignature({
        secret: sub.secret,
        header: got[0].headers["x-service-signature"] as string,
        timestamp: got[0].headers["x-service-timestamp"] as string,
        body: got[0].body,
        nowSeconds: Math.floor(clock.now().getTime() / 1000),
      }),
    ).toBe(true);
    const log = await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(sub.id) });
    expect(log.body.deliveries[0]).toMatchObject({
      eventId,
      event: "email.replied",
      status: "DELIVERED",
      attempts: 1,
      lastStatusCode: 200,
      lastResponse: "ok",
    });
    for (const w of [sub, other, paused]) await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
  });

  it("never delivers an event from a rolled-back transaction", async () => {
    const w = (await create({ url: receiver.url("/rb"), events: ["lead.unsubscribed"] })).body;
    const before = receiver.received.length;
    await expect(
      getDb().transaction(async (tx) => {
        await emitEvent(tx, ws.workspaceId, "lead.unsubscribed", { leadId: "lead_x" }, clock.now());
        throw new Error("rolled back");
      }),
    ).rejects.toThrow();
    await pump();
    expect(receiver.received.length).toBe(before);
    await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
  });

  for (const limit of [1, 3, 5]) {
    it(`retries a failing receiver exactly ${limit} time(s) in all, at 30 s, 1 min, 2 min … then FAILED`, async () => {
      const w = (await create({ url: receiver.url(`/fail${limit}`), events: ["email.bounced"], retryAttempts: limit })).body;
      receiver.setResponder(() => ({ status: 500, body: "boom" }));
      const start = clock.now().getTime();
      await emit("email.bounced", { sendEventId: "s", leadEmail: "l@x.test", bounceType: "HARD" });
      const times: number[] = [];
      const count = () => receiver.received.filter((r) => r.url === `/fail${limit}`).length;
      await pump();
      times.push(clock.now().getTime() - start);
      // Step the clock in 10-second ticks for 20 minutes; record when each attempt happens.
      for (let t = 0; t < 120; t++) {
        const n = count();
        clock.advance(10_000);
        await deliverDue(getDb(), clock);
        if (count() > n) times.push(clock.now().getTime() - start);
      }
      const expected = [0, 30_000, 90_000, 210_000, 450_000].slice(0, limit);
      expect(times).toEqual(expected);
      const [d] = (await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(w.id) })).body.deliveries;
      expect(d).toMatchObject({ status: "FAILED", attempts: limit, lastStatusCode: 500, lastResponse: "boom", nextAttemptAt: null });
      await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
    });
  }

  it("treats a redirect as a failure and never follows it", async () => {
    const w = (await create({ url: receiver.url("/redirect"), events: ["email.opened"], retryAttempts: 1 })).body;
    receiver.setResponder(() => ({ status: 302, headers: { location: canary.url("/landed") } }));
    const canaryBefore = canary.connections;
    await emit("email.opened", { sendEventId: "s" });
    await pump();
    expect(canary.connections).toBe(canaryBefore);
    const [d] = (await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(w.id) })).body.deliveries;
    expect(d).toMatchObject({ status: "FAILED", lastStatusCode: 302, lastError: expect.stringContaining("not followed") });
    await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
  });

  it("times out a slow receiver", async () => {
    const w = (await create({ url: receiver.url("/slow"), events: ["email.clicked"], retryAttempts: 1, timeoutMs: 1000 })).body;
    receiver.setResponder(() => ({ status: 200, delayMs: 1500 }));
    await emit("email.clicked", { sendEventId: "s" });
    await pump();
    const [d] = (await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(w.id) })).body.deliveries;
    expect(d).toMatchObject({ status: "FAILED", lastStatusCode: null, lastError: "Timed out after 1000 ms" });
    await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
  });

  it("loses nothing when a worker dies mid-delivery: the lease runs out and the same event id is sent again", async () => {
    const w = (await create({ url: receiver.url("/crash"), events: ["mailbox.disconnected"] })).body;
    const eventId = await emit("mailbox.disconnected", { mailboxId: "mbx_1" });
    await dispatchEvents(getDb(), clock);
    // A worker claims the delivery, then dies before sending.
    await getDb()
      .update(webhookDeliveries)
      .set({ leasedUntil: new Date(clock.now().getTime() + 60_000) })
      .where(eq(webhookDeliveries.webhookId, w.id));
    expect((await deliverDue(getDb(), clock)).attempted).toBe(0);
    clock.advance(61_000);
    await deliverDue(getDb(), clock);
    const got = receiver.received.filter((r) => r.url === "/crash");
    expect(got).toHaveLength(1);
    expect(got[0].headers["x-service-event-id"]).toBe(eventId);
    await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
  });
});

describe("rotation, test, resend, log", () => {
  it("signs with both secrets for 24 hours after a rotation, then only the new one", async () => {
    const w = (await create({ url: receiver.url("/rot"), events: ["webhook.test"] })).body;
    const rotated = await call(ROTATE, "POST", "", { key: ws.fullKey, ...p(w.id) });
    expect(rotated.body.secret).not.toBe(w.secret);
    await call(TEST, "POST", "", { key: ws.fullKey, ...p(w.id) });
    const during = receiver.received.at(-1)!;
    const sig = during.headers["x-service-signature"] as string;
    expect(sig.split(",")).toHaveLength(2);
    const now = () => Math.floor(clock.now().getTime() / 1000);
    for (const secret of [w.secret, rotated.body.secret]) {
      expect(
        verifySignature({
          secret,
          header: sig,
          timestamp: during.headers["x-service-timestamp"] as string,
          body: during.body,
          nowSeconds: now(),
        }),
      ).toBe(true);
    }
    clock.advance(24 * 3600_000 + 1000);
    await call(TEST, "POST", "", { key: ws.fullKey, ...p(w.id) });
    const after = receiver.received.at(-1)!;
    const sig2 = after.headers["x-service-signature"] as string;
    expect(sig2.split(",")).toHaveLength(1);
    expect(
      verifySignature({
        secret: rotated.body.secret,
        header: sig2,
        timestamp: after.headers["x-service-timestamp"] as string,
        body: after.body,
        nowSeconds: now(),
      }),
    ).toBe(true);
    expect(
      verifySignature({
        secret: w.secret,
        header: sig2,
        timestamp: after.headers["x-service-timestamp"] as string,
        body: after.body,
        nowSeconds: now(),
      }),
    ).toBe(false);
    await call(DELETE, "DELETE", "", { key: ws.fullKey, ...p(w.id) });
  });

  it("test answers { delivered, statusCode, error } and is logged but not retried", async () => {
    const w = (await create({ url: receiver.url("/t"), events: ["email.sent"] })).body;
    const ok = await call(TEST, "POST", "", { key: ws.fullKey, ...p(w.id) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ delivered: true, statusCode: 200, error: null });
    expect(JSON.parse(receiver.received.at(-1)!.body)).toMatchObject({ event: "webhook.test", id: ok.body.eventId });
    receiver.setResponder(() => ({ status: 503, body: "down" }));
    const bad = await call(TEST, "POST", "", { key: ws.fullKey, ...p(w.id) });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ delivered: false, statusCode: 503, error: "Receiver answered 503" });
    const n = receiver.received.length;
    clock.advance(3600_000);
    await deliverDue(getDb(), clock);
    expect(receiver.received.length).toBe(n);
    const log = (await call(DELIVERIES, "GET", "/webhooks/x/deliveries?status=FAILED", { key: ws.readKey, ...p(w.id) })).body;
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]).toMatchObject({ isTest: true, attempts: 1, status: "FAILED" });
  });

  it("resends a delivery with the same body and the same event id", async () => {
    const w = (await create({ url: receiver.url("/resend"), events: ["email.sent"], retryAttempts: 1 })).body;
    receiver.setResponder(() => ({ status: 500 }));
    await emit("email.sent", { sendEventId: "r1", leadEmail: "l@x.test", mailboxEmail: "m@x.test" });
    await pump();
    const first = receiver.received.at(-1)!;
    const [d] = (await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(w.id) })).body.deliveries;
    expect(d.status).toBe("FAILED");
    receiver.setResponder(() => ({ status: 204 }));
    clock.advance(5000);
    const r = await call(RESEND, "POST", "", { key: ws.fullKey, ...p(w.id, { deliveryId: d.id }) });
    expect(r.body).toMatchObject({ delivered: true, status: "DELIVERED", eventId: d.eventId });
    const again = receiver.received.at(-1)!;
    expect(again.body).toBe(first.body);
    expect(again.headers["x-service-event-id"]).toBe(first.headers["x-service-event-id"]);
    expect(again.headers["x-service-timestamp"]).not.toBe(first.headers["x-service-timestamp"]);
  });

  it("lists newest first with paging ≤ 100, and drops entries older than 30 days", async () => {
    const w = (await create({ url: receiver.url("/log"), events: ["webhook.test"] })).body;
    for (let i = 0; i < 3; i++) {
      await call(TEST, "POST", "", { key: ws.fullKey, ...p(w.id) });
      clock.advance(1000);
    }
    const page = await call(DELIVERIES, "GET", "/webhooks/x/deliveries?limit=2", { key: ws.readKey, ...p(w.id) });
    expect(page.body).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(new Date(page.body.deliveries[0].createdAt) > new Date(page.body.deliveries[1].createdAt)).toBe(true);
    expect((await call(DELIVERIES, "GET", "/webhooks/x/deliveries?limit=101", { key: ws.readKey, ...p(w.id) })).status).toBe(400);
    clock.advance(31 * 24 * 3600_000);
    expect(await cleanupDeliveries(getDb(), clock.now())).toBeGreaterThanOrEqual(3);
    expect((await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(w.id) })).body.total).toBe(0);
  });
});

describe("SSRF guard", () => {
  const port = () => canary.port;
  const forms = () => [
    `http://127.0.0.2:${port()}/`,
    `http://127.0.2:${port()}/`,
    `http://2130706434:${port()}/`,
    `http://0x7f000002:${port()}/`,
    `http://0177.0.0.2:${port()}/`,
    `http://0x7f.0.0.2:${port()}/`,
    `http://127.0.0.2.:${port()}/`,
    `http://localhost:${port()}/`,
    `http://LOCALHOST:${port()}/`,
    `http://foo.localhost/`,
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.2]/",
    "http://[::ffff:7f00:2]/",
    "http://[::127.0.0.2]/",
    "http://[64:ff9b::7f00:2]/",
    "http://[2002:7f00:2::]/",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffd]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::]/",
    "http://10.0.0.1/",
    "http://10.255.255.255/",
    "http://172.16.0.1/",
    "http://172.31.255.254/",
    "http://192.168.0.1/",
    "http://192.168.1.1:8080/",
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.170.2/",
    "http://[fd00:ec2::254]/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata/",
    "http://100.100.100.200/",
    "http://100.64.0.1/",
    "http://192.0.0.192/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://255.255.255.255/",
    "http://198.18.0.1/",
    "http://192.0.2.1/",
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://240.0.0.1/",
    "http://3232235521/",
    "http://0xc0a80001/",
    "http://0300.0250.0.1/",
    "http://10.1/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a9fe:a9fe]/",
    "ftp://hooks.example.test/",
    "file:///etc/passwd",
    "gopher://127.0.0.1/",
    "http://user:pass@hooks.example.test/",
    "http://kubernetes.default.svc/",
    "http://instance-data/latest/",
    "http://xn--nxasmq6b.localhost/",
    "http://does-not-resolve.invalid/",
    "http://[::ffff:0:7f00:2]/",
    "http://0x7f.2/",
    "http://127.000.000.002/",
    "javascript:alert(1)",
    "not a url",
  ];

  it(`refuses ${"at least 60"} private, reserved, internal and malformed URL forms at create, and nothing reaches the canary`, async () => {
    const before = canary.connections;
    const list = forms();
    expect(list.length).toBeGreaterThanOrEqual(60);
    const accepted: string[] = [];
    for (const url of list) {
      const r = await create({ url, events: ["email.sent"] });
      if (r.status !== 400 || r.body.code !== "VALIDATION_ERROR" || !r.body.details.fieldErrors.url) accepted.push(`${url} → ${r.status}`);
    }
    expect(accepted).toEqual([]);
    expect(canary.connections).toBe(before);
  });

  it("refuses at delivery a name that now resolves to a private address (DNS rebinding), with zero connections", async () => {
    const w = await create({ url: `http://rebind.example.test:${canary.port}/hook`, events: ["email.sent"], retryAttempts: 1 });
    expect(w.status).toBe(201); // public at create time
    dns.zone.A!["rebind.example.test"] = ["127.0.0.2"];
    const before = canary.connections;
    await emit("email.sent", { sendEventId: "x" });
    await pump();
    expect(canary.connections).toBe(before);
    const [d] = (await call(DELIVERIES, "GET", "", { key: ws.readKey, ...p(w.body.id) })).body.deliveries;
    expect(d).toMatchObject({ status: "FAILED", lastError: expect.stringContaining("Refused to connect") });
  });
});
