import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { selectRows } from "@/db/bulk";
import { auditLog, emailEvents, events, idempotencyKeys, messageFiles, rateLimitCounters, webhookDeliveries } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { checkSettings } from "@/lib/env";
import { createWebhook } from "@/lib/webhooks/webhooks";
import { insertEmail, insertMailbox } from "@/test/factories";
import { makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { runCleanup } from "./cleanup";

const DAY = 86_400_000;
const now = new Date("2027-06-01T12:00:00Z");
const ago = (days: number) => new Date(now.getTime() - days * DAY);
const OLD = 5; // rows past each limit; the runs below take 2 a statement
let ws: TestWorkspace;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  ws = await makeWorkspace();
});
afterAll(() => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  delete process.env.RETAIN_WEBHOOK_DELIVERIES_DAYS;
});

/** OLD rows past each limit and one just inside it, of every kind the clean-up removes; old undelivered events. */
async function seed(): Promise<{ webhookId: string }> {
  const w = ws.workspaceId;
  const clock = new ManualClock(now);
  const hook = await createWebhook(systemCtx(w, { clock }), { url: "http://127.0.0.1:9/r", events: ["email.sent"] });
  const mbx = await insertMailbox(w, `ret@${w}.test`);
  const ages = (old: number, young: number) => [...Array.from({ length: OLD }, () => old), young];
  const mails: string[] = [];
  for (const [i, days] of ages(181, 179).entries())
    mails.push(await insertEmail(w, mbx.id, { id: `eml_${w}_${i}`, createdAt: ago(days), bodyText: "b" }));
  const db = getDb();
  const delivery = (i: number) => ({
    id: `dlv_${w}_${i}`,
    workspaceId: w,
    webhookId: hook.id,
    eventId: `evt_${i}`,
    event: "email.sent",
  });
  await db.insert(webhookDeliveries).values([
    ...ages(31, 29).map((days, i) => ({ ...delivery(i), body: "{}", status: "DELIVERED" as const, createdAt: ago(days) })),
    { ...delivery(99), body: "{}", status: "PENDING" as const, createdAt: ago(400) }, // still retrying: stays
  ]);
  await db.insert(emailEvents).values(
    ages(91, 89).map((days, i) => ({
      id: `eev_${w}_${i}`,
      workspaceId: w,
      emailId: mails[0],
      kind: "OPEN" as const,
      createdAt: ago(days),
      settledAt: ago(days),
    })),
  );
  await db
    .insert(auditLog)
    .values(
      ages(366, 364).map((days, i) => ({ id: `aud_${w}_${i}`, workspaceId: w, at: ago(days), actorType: "system" as const, action: "t" })),
    );
  const upload = { workspaceId: w, upload: true, fileId: "fil_none", filename: "a.txt", contentType: "text/plain", size: 1 };
  await db.insert(messageFiles).values(ages(2, 0.5).map((days, i) => ({ ...upload, id: `mfl_${w}_${i}`, createdAt: ago(days) })));
  const key = (i: number, expiresIn: number) => ({
    workspaceId: w,
    key: `k${i}`,
    requestHash: "h",
    createdAt: ago(1),
    expiresAt: new Date(now.getTime() + expiresIn),
  });
  await db.insert(idempotencyKeys).values(ages(-1, 1).map((ms, i) => key(i, ms * 60_000)));
  await db
    .insert(rateLimitCounters)
    .values(ages(2, 0.5).map((h, i) => ({ key: `rl:${w}:${i}`, points: 1, expire: new Date(now.getTime() - h * 3600_000) })));
  // The outbox: an event not yet dispatched is never the clean-up's, however old.
  await db
    .insert(events)
    .values([0, 1].map((i) => ({ id: `evt_${w}_${i}`, workspaceId: w, event: "email.sent", data: {}, createdAt: ago(400) })));
  return { webhookId: hook.id };
}

async function left(): Promise<Record<string, number>> {
  const [row] = await selectRows<Record<string, number>>(
    getDb(),
    sql`select (select count(*)::int from webhook_deliveries) as deliveries, (select count(*)::int from email_events) as hits,
      (select count(*)::int from emails where body_text is not null) as bodies, (select count(*)::int from audit_log where action = 't') as audit,
      (select count(*)::int from message_files) as uploads, (select count(*)::int from idempotency_keys) as keys,
      (select count(*)::int from rate_limit_counters where key like 'rl:%') as windows, (select count(*)::int from events) as events`,
  );
  return row;
}

describe("retention runs in batches", () => {
  it("takes at most the batch of each kind a run until every row past its limit is gone, and keeps the rest", async () => {
    await seed();
    const ctx = systemCtx(undefined, { clock: new ManualClock(now) });
    const runs = [await runCleanup(ctx, 2), await runCleanup(ctx, 2), await runCleanup(ctx, 2), await runCleanup(ctx, 2)];
    const kinds = Object.keys(runs[0]) as (keyof (typeof runs)[0])[];
    expect(kinds.sort()).toEqual(
      [
        "auditRowsDeleted",
        "emailBodiesCleared",
        "idempotencyKeysDeleted",
        "rateLimitCountersDeleted",
        "trackingHitsDeleted",
        "uploadsDeleted",
        "webhookDeliveriesDeleted",
      ].sort(),
    );
    for (const kind of kinds) expect([kind, runs.map((r) => r[kind])]).toEqual([kind, [2, 2, 1, 0]]);
    // One of each survives (inside its limit), the pending delivery and both undelivered events stay.
    expect(await left()).toEqual({ deliveries: 2, hits: 1, bodies: 1, audit: 1, uploads: 1, keys: 1, windows: 1, events: 2 });
  });

  it("reads the delivery log's limit from RETAIN_WEBHOOK_DELIVERIES_DAYS, and refuses a bad value at start", async () => {
    const w = ws.workspaceId;
    const hook = await createWebhook(systemCtx(w, { clock: new ManualClock(now) }), {
      url: "http://127.0.0.1:9/s",
      events: ["email.sent"],
    });
    const row = (id: string, days: number) => ({
      id,
      workspaceId: w,
      webhookId: hook.id,
      eventId: id,
      event: "email.sent",
      body: "{}",
      status: "FAILED" as const,
      createdAt: ago(days),
    });
    await getDb()
      .insert(webhookDeliveries)
      .values([row("dlv_env_11", 11), row("dlv_env_9", 9)]);
    process.env.RETAIN_WEBHOOK_DELIVERIES_DAYS = "10";
    const done = await runCleanup(systemCtx(undefined, { clock: new ManualClock(now) }));
    expect(done.webhookDeliveriesDeleted).toBeGreaterThanOrEqual(1);
    const ids = await selectRows<{ id: string }>(getDb(), sql`select id from webhook_deliveries where id like 'dlv_env_%'`);
    expect(ids.map((r) => r.id)).toEqual(["dlv_env_9"]);
    expect(() => checkSettings({ RETAIN_WEBHOOK_DELIVERIES_DAYS: "30d" })).toThrow(/RETAIN_WEBHOOK_DELIVERIES_DAYS/);
    expect(() => checkSettings({ RETAIN_WEBHOOK_DELIVERIES_DAYS: "0" })).toThrow(/RETAIN_WEBHOOK_DELIVERIES_DAYS/);
  });
});
