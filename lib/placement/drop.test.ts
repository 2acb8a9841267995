import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { alerts, placementResults, placementTests } from "@/db/schema";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { finishTest } from "./finish";

/**
 * PLACEMENT_DROP's second rule (rules.isDrop): a completed test 20 points or more below the mailbox's
 * previous completed test raises the alert even at 50 % or more in the inbox; the previous test is the
 * mailbox's own last COMPLETED one (a FAILED test, or another mailbox's, is no base).
 */
let ws: TestWorkspace;
let t = Date.parse("2026-11-10T10:00:00Z");
beforeAll(async () => {
  ws = await makeWorkspace();
});

/** A test of `mailboxId` with `inbox` of its 5 seeds in the inbox (the rest in spam), finished as `status`. */
async function test(mailboxId: string, inbox: number, status: "COMPLETED" | "FAILED" = "COMPLETED") {
  const id = newId("plt");
  const now = new Date((t += 60_000));
  await getDb()
    .insert(placementTests)
    .values({
      id,
      workspaceId: ws.workspaceId,
      batchId: newId("plb"),
      mailboxId,
      status: "RUNNING",
      subject: "s",
      bodyText: "b",
      seedCount: 5,
      deadlineAt: now,
      createdAt: now,
    });
  await getDb()
    .insert(placementResults)
    .values(
      Array.from({ length: 5 }, (_, i) => ({
        id: newId("plr"),
        testId: id,
        seedEmail: `seed${i}@seeds.test`,
        provider: "OTHER",
        messageId: `<${newId("plr")}@drop.test>`,
        placement: i < inbox ? ("INBOX" as const) : ("SPAM" as const),
      })),
    );
  expect(await finishTest(getDb(), id, status, now)).toBe(true);
  return id;
}

const openDrops = () =>
  getDb()
    .select()
    .from(alerts)
    .where(and(eq(alerts.workspaceId, ws.workspaceId), eq(alerts.kind, "PLACEMENT_DROP"), isNull(alerts.resolvedAt)));

describe("PLACEMENT_DROP against the previous test", () => {
  it("raises on a fall of 20 points above 50 %, compares with the mailbox's own last completed test, resolves on a clean one", async () => {
    const m = await insertMailbox(ws.workspaceId, "dropper@drop.test");
    const other = await insertMailbox(ws.workspaceId, "other@drop.test");
    await test(m.id, 5); // 100 %
    expect(await openDrops()).toEqual([]);
    // Neither a FAILED test of the mailbox nor another mailbox's test is the base the next one is compared with.
    await test(m.id, 0, "FAILED"); // 0 %: were it the base, 80 % would be no fall
    await test(other.id, 3); // 60 %: were it the base, 80 % would be no fall either
    expect(await openDrops()).toEqual([]);

    const dropped = await test(m.id, 4); // 80 %: 20 points below 100 %
    const [open] = await openDrops();
    expect(open).toMatchObject({ mailboxId: m.id, subject: m.id, severity: "warning" });
    expect(open.message).toContain("80%");
    expect(open.message).toContain("the previous test had 100%");
    expect(open.details).toMatchObject({ testId: dropped, inboxPct: 80, previousInboxPct: 100 });

    await test(m.id, 3); // 60 %: 20 points below 80 % — still a drop, the same alert refreshed
    expect(await openDrops()).toHaveLength(1);
    await test(m.id, 3); // 60 % again: clean
    expect(await openDrops()).toEqual([]);
  });
});
