import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { makeWorkspace } from "@/test/helpers";
import { emitEvent } from "./emit";

describe("emitEvent (outbox)", () => {
  it("records the event with an evt_ hex id in the caller's transaction, and rolls back with it", async () => {
    const ws = await makeWorkspace();
    const at = new Date("2026-11-02T09:00:00Z");
    const kept = await getDb().transaction((tx) => emitEvent(tx, ws.workspaceId, "mailbox.reconnected", { mailboxId: "mbx_1" }, at));
    expect(kept).toMatch(/^evt_[0-9a-f]{24}$/);
    await expect(
      getDb().transaction(async (tx) => {
        await emitEvent(tx, ws.workspaceId, "mailbox.disconnected", { mailboxId: "mbx_1" }, at);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const rows = await getDb().select().from(events).where(eq(events.workspaceId, ws.workspaceId));
    expect(rows.map((r) => [r.id, r.event, r.data, r.createdAt.toISOString()])).toEqual([
      [kept, "mailbox.reconnected", { mailboxId: "mbx_1" }, at.toISOString()],
    ]);
  });
});
