import { killWorker, startWorker as spawnWorker } from "@/test/worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { selectRows } from "@/db/bulk";
import { getDb } from "@/db/client";
import { systemClock } from "@/lib/clock";
import { emitEvent } from "@/lib/events/emit";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startHttpPeer } from "@/test/peers/http";
import { POST as CREATE } from "@/app/api/v1/webhooks/route";

let ws: TestWorkspace;
let receiver: Awaited<ReturnType<typeof startHttpPeer>>;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  receiver = await startHttpPeer();
  // A slow receiver widens the window in which the worker dies mid-delivery.
  receiver.setResponder(() => ({ status: 200, delayMs: 150 }));
  ws = await makeWorkspace();
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await receiver.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const startWorker = () => spawnWorker({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1" });

describe("webhook delivery across crashes", () => {
  it("kills the sidecar mid-delivery again and again and loses no event", async () => {
    expect(
      (await call(CREATE, "POST", "/webhooks", { key: ws.fullKey, body: { url: receiver.url("/crash"), events: ["email.sent"] } })).status,
    ).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(await getDb().transaction((tx) => emitEvent(tx, ws.workspaceId, "email.sent", { sendEventId: `s${i}` }, systemClock.now())));
    for (let round = 0; round < 5; round++) {
      const w = startWorker();
      const before = receiver.received.length;
      const deadline = Date.now() + 15_000;
      while (receiver.received.length === before && Date.now() < deadline) await sleep(20);
      await sleep(100 + Math.floor(Math.random() * 300));
      await killWorker(w);
      // The dead worker's leases would run out after a minute; let them go now instead of waiting.
      await getDb().execute(sql`update webhook_deliveries set leased_until = null where status = 'PENDING'`);
    }
    const w = startWorker();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [{ n }] = await selectRows<{ n: number }>(
        getDb(),
        sql`select count(*)::int as n from webhook_deliveries where status = 'PENDING'`,
      );
      const [{ e }] = await selectRows<{ e: number }>(getDb(), sql`select count(*)::int as e from events`);
      if ((n === 0 && e === 0) || Date.now() > deadline) break;
      await sleep(100);
    }
    await killWorker(w);
    const got = new Set(receiver.received.map((r) => r.headers["x-service-event-id"] as string));
    expect(ids.filter((id) => !got.has(id))).toEqual([]); // every event arrived at least once
    const [{ delivered }] = await selectRows<{ delivered: number }>(
      getDb(),
      sql`select count(*)::int as delivered from webhook_deliveries where status = 'DELIVERED'`,
    );
    expect(delivered).toBe(40);
    console.log(`webhook crash test: ${receiver.received.length} requests for 40 events (duplicates carry the same event id)`);
  }, 300_000);
});
