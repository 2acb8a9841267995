import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailEvents, emails } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { insertEmail, insertMailbox } from "@/test/factories";
import { makeWorkspace } from "@/test/helpers";
import { runCleanup } from "./cleanup";

const DAY = 86_400_000;

describe("retention of tracking hits and sent bodies", () => {
  it("deletes settled hits past 90 days and clears bodies past 180, keeping the rows and their first hits", async () => {
    const ws = await makeWorkspace();
    const mbx = await insertMailbox(ws.workspaceId, `r@${ws.workspaceId}.test`);
    const now = new Date("2027-06-01T12:00:00Z");
    const ago = (d: number) => new Date(now.getTime() - d * DAY);
    const oldMail = await insertEmail(ws.workspaceId, mbx.id, {
      createdAt: ago(181),
      bodyText: "old",
      bodyHtml: "<p>old</p>",
      openedAt: ago(100),
    });
    const newMail = await insertEmail(ws.workspaceId, mbx.id, { createdAt: ago(179), bodyText: "new", bodyHtml: null });
    const hit = (id: string, emailId: string, days: number, settled = true) => ({
      id,
      workspaceId: ws.workspaceId,
      emailId,
      kind: "OPEN" as const,
      createdAt: ago(days),
      settledAt: settled ? ago(days) : null,
    });
    await getDb()
      .insert(emailEvents)
      .values([
        hit(`eev_${ws.workspaceId}_a`, oldMail, 91),
        hit(`eev_${ws.workspaceId}_b`, oldMail, 89),
        hit(`eev_${ws.workspaceId}_c`, newMail, 95, false),
      ]);
    const done = await runCleanup(systemCtx(undefined, { clock: new ManualClock(now) }));
    expect(done.trackingHitsDeleted).toBeGreaterThanOrEqual(1);
    expect(done.emailBodiesCleared).toBeGreaterThanOrEqual(1);
    const left = await getDb()
      .select({ id: emailEvents.id })
      .from(emailEvents)
      .where(inArray(emailEvents.emailId, [oldMail, newMail]));
    expect(left.map((r) => r.id).sort()).toEqual([`eev_${ws.workspaceId}_b`, `eev_${ws.workspaceId}_c`]); // the unsettled one waits to be settled
    const [o] = await getDb().select().from(emails).where(eq(emails.id, oldMail));
    const [n] = await getDb().select().from(emails).where(eq(emails.id, newMail));
    expect([o.bodyText, o.bodyHtml, o.openedAt?.getTime(), o.subject]).toEqual([null, null, ago(100).getTime(), "s"]);
    expect(n.bodyText).toBe("new");
  });
});
