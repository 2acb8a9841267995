import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { createWebhook } from "@/lib/webhooks/webhooks";
import { makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { cleanupDeliveries } from "./record";

let ws: TestWorkspace;
beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_HOSTS = "127.0.0.1";
  ws = await makeWorkspace();
});
afterAll(() => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
});

const DAY = 24 * 3600_000;

describe("the delivery log keeps 30 days", () => {
  it("deletes finished deliveries older than 30 days, of every webhook, and keeps pending and newer ones", async () => {
    const now = new Date("2026-11-20T12:00:00Z");
    const owner = systemCtx(ws.workspaceId, { clock: new ManualClock(now) });
    const a = await createWebhook(owner, { url: "http://127.0.0.1:9/a", events: ["email.sent"] });
    const b = await createWebhook(owner, { url: "http://127.0.0.1:9/b", events: ["email.sent"] });
    const row = (id: string, webhookId: string, status: "PENDING" | "DELIVERED" | "FAILED", ageDays: number) => ({
      id,
      workspaceId: ws.workspaceId,
      webhookId,
      eventId: `evt_${id}`,
      event: "email.sent",
      body: "{}",
      status,
      createdAt: new Date(now.getTime() - ageDays * DAY),
    });
    const rows = [
      row("dlv_old_delivered_a", a.id, "DELIVERED", 31),
      row("dlv_old_failed_b", b.id, "FAILED", 45),
      row("dlv_old_pending_a", a.id, "PENDING", 31),
      row("dlv_new_delivered_b", b.id, "DELIVERED", 29),
    ];
    await getDb().insert(webhookDeliveries).values(rows);

    expect(await cleanupDeliveries(getDb(), now)).toBe(2);
    const left = await getDb()
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.id,
          rows.map((r) => r.id),
        ),
      );
    expect(left.map((r) => r.id).sort()).toEqual(["dlv_new_delivered_b", "dlv_old_pending_a"]);
  });
});
