import { describe, expect, it } from "vitest";
import { inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditLog } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { runCleanup } from "@/lib/retention/cleanup";
import { makeWorkspace } from "@/test/helpers";
import { audit, auditAccount } from "./record";

const DAY = 86_400_000;

describe("the audit log's 365 days", () => {
  it("the clean-up job deletes rows older than 365 days, of every workspace and account, and keeps newer ones", async () => {
    const ws = await makeWorkspace();
    const now = new Date("2027-03-01T12:00:00Z");
    const at = (days: number) => new ManualClock(new Date(now.getTime() - days * DAY));
    await audit(systemCtx(ws.workspaceId, { clock: at(366) }), "campaign.deleted", { type: "campaign", id: "old" });
    await audit(systemCtx(ws.workspaceId, { clock: at(364) }), "campaign.deleted", { type: "campaign", id: "kept" });
    await auditAccount(getDb(), { userId: ws.userId, action: "auth.sign_in", at: at(400).now() });
    await auditAccount(getDb(), { userId: ws.userId, action: "auth.sign_in", at: at(1).now() });
    const before = await getDb().select({ id: auditLog.id }).from(auditLog);
    const done = await runCleanup(systemCtx(undefined, { clock: new ManualClock(now) }));
    expect(done.auditRowsDeleted).toBe(2);
    const left = await getDb()
      .select({ action: auditLog.action, target: auditLog.targetId, at: auditLog.at })
      .from(auditLog)
      .where(
        inArray(
          auditLog.id,
          before.map((b) => b.id),
        ),
      );
    expect(left.map((r) => r.target).sort()).toEqual(["kept", ws.userId]);
    expect(left.every((r) => r.at.getTime() > now.getTime() - 365 * DAY)).toBe(true);
    // Running again deletes nothing more.
    expect((await runCleanup(systemCtx(undefined, { clock: new ManualClock(now) }))).auditRowsDeleted).toBe(0);
  });
});
