import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events, webhookDeliveries } from "@/db/schema";
import { type Clock, ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { emitEvent } from "@/lib/events/emit";
import { memoryLogger } from "@/lib/log";
import { createWebhook } from "@/lib/webhooks/webhooks";
import { makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startHttpPeer } from "@/test/peers/http";
import { deliverDue } from "./deliver";
import { dispatchEvents } from "./dispatch";
import { runWebhookDeliveries, webhookTurn } from "./turn";
import { DeliveryWindow } from "./delivery-window";

let ws: TestWorkspace;
let receiver: Awaited<ReturnType<typeof startHttpPeer>>;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  receiver = await startHttpPeer();
  ws = await makeWorkspace();
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await receiver.close();
});

/** A clock that moves `stepMs` every time it is read. */
function steppingClock(start: Date, stepMs: number): Clock {
  const clock = new ManualClock(start);
  return {
    now: () => {
      const at = clock.now();
      clock.advance(stepMs);
      return at;
    },
  };
}

async function emit(n: number, at: Date) {
  await getDb().transaction(async (tx) => {
    for (let i = 0; i < n; i++) await emitEvent(tx, ws.workspaceId, "email.sent", { sendEventId: `s${i}` }, at);
  });
}

describe("the webhook job's run", () => {
  it("works through a backlog in turns and stops once the injected clock says its 5 seconds are spent", async () => {
    const start = new Date("2026-11-02T09:00:00Z");
    const owner = systemCtx(ws.workspaceId, { clock: new ManualClock(start) });
    await createWebhook(owner, { url: receiver.url("/hook"), events: ["email.sent"] });
    await emit(3, start);

    // A clock that does not move: the run goes on until nothing is left.
    const log = memoryLogger();
    const all = await runWebhookDeliveries(systemCtx(undefined, { clock: new ManualClock(new Date(start.getTime() + 1000)), log }));
    expect(all).toMatchObject({ events: 3, deliveries: 3, attempted: 3, delivered: 3 });
    expect(log.lines).toEqual([]);

    // A failing receiver and a clock that moves 10 s per read: the budget is spent after the first
    // turn, so each delivery is tried once — not again when its 30-second backoff has passed.
    await emit(3, start);
    receiver.setResponder(() => ({ status: 500 }));
    const before = receiver.received.length;
    const run = await runWebhookDeliveries(systemCtx(undefined, { clock: steppingClock(new Date(start.getTime() + 2000), 10_000) }));
    expect(run).toMatchObject({ events: 3, deliveries: 3, attempted: 3, delivered: 0 });
    expect(receiver.received.length - before).toBe(3);
  });

  it("does not send a queued delivery whose lease has (nearly) run out; a later claim sends it", async () => {
    const start = new Date("2026-11-03T09:00:00Z");
    receiver.setResponder(() => ({ status: 200 }));
    await emit(2, start);
    const clock = new ManualClock(start);
    const d = await dispatchEvents(getDb(), clock, 500, { lease: true });
    expect(d.leased.length).toBe(d.deliveries);
    expect(d.deliveries).toBeGreaterThanOrEqual(2);

    // Queued behind slow receivers for 56 s: the lease (60 s) ends within the 5-second margin.
    clock.advance(56_000);
    const before = receiver.received.length;
    const w = new DeliveryWindow(getDb(), clock, memoryLogger());
    w.add(d.leased);
    expect(await w.finish()).toEqual({ attempted: 0, delivered: 0 });
    expect(receiver.received.length).toBe(before);

    // Once the lease is over, a claim takes them and they are sent, once each (the claim also takes the
    // first case's failed deliveries, due again a day later).
    clock.advance(5_000);
    await deliverDue(getDb(), clock);
    const ids = receiver.received.slice(before).map((r) => r.headers["x-service-event-id"]);
    for (const c of d.leased) expect(ids.filter((id) => id === c.eventId)).toHaveLength(1);
  });

  it("takes dispatched events out of the outbox with their deliveries, those no webhook subscribes to as well", async () => {
    const other = await makeWorkspace("outbox");
    const at = new Date("2026-11-04T09:00:00Z");
    await createWebhook(systemCtx(other.workspaceId, { clock: new ManualClock(at) }), {
      url: receiver.url("/outbox"),
      events: ["email.sent"],
    });
    const ids = await getDb().transaction(async (tx) => [
      await emitEvent(tx, other.workspaceId, "email.sent", { sendEventId: "o1" }, at),
      await emitEvent(tx, other.workspaceId, "email.opened", { sendEventId: "o1" }, at), // no webhook wants it
      await emitEvent(tx, other.workspaceId, "email.sent", { sendEventId: "o2" }, at),
    ]);
    const inOutbox = async () =>
      (await getDb().select({ id: events.id }).from(events).where(eq(events.workspaceId, other.workspaceId))).length;
    expect(await inOutbox()).toBe(3);

    const d = await dispatchEvents(getDb(), new ManualClock(at), 500);
    expect(d.events).toBe(3);
    expect(await inOutbox()).toBe(0);
    const made = await getDb()
      .select({ eventId: webhookDeliveries.eventId, body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workspaceId, other.workspaceId));
    expect(made.map((r) => r.eventId).sort()).toEqual([ids[0], ids[2]].sort());
    // The delivery keeps the whole envelope: nothing the receiver gets depends on the outbox row.
    expect(JSON.parse(made.find((r) => r.eventId === ids[0])!.body)).toMatchObject({
      id: ids[0],
      event: "email.sent",
      data: { sendEventId: "o1" },
    });

    // Nothing is dispatched twice: the next dispatch finds none of them.
    const again = await dispatchEvents(getDb(), new ManualClock(at), 500);
    expect(again.events).toBe(0);
  });

  it("a turn stops taking events once its run's time is spent, after its first batch; the next turn takes the rest", async () => {
    const other = await makeWorkspace("budget");
    const at = new Date("2026-11-05T09:00:00Z");
    const clock = new ManualClock(at);
    while ((await dispatchEvents(getDb(), clock, 500)).events > 0); // an empty outbox to begin with
    await getDb().transaction(async (tx) => {
      for (let i = 0; i < 250; i++) await emitEvent(tx, other.workspaceId, "email.sent", { sendEventId: `b${i}` }, at);
    });
    const inOutbox = async () =>
      (await getDb().select({ id: events.id }).from(events).where(eq(events.workspaceId, other.workspaceId))).length;

    // The run's time is already spent: the first batch (100) goes, no more.
    expect(await webhookTurn(getDb(), clock, memoryLogger(), at.getTime() - 1)).toMatchObject({ events: 100 });
    expect(await inOutbox()).toBe(150);
    // With time left, a turn takes the rest.
    expect(await webhookTurn(getDb(), clock, memoryLogger(), at.getTime() + 5_000)).toMatchObject({ events: 150 });
    expect(await inOutbox()).toBe(0);
  });
});
