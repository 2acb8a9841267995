import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, mailboxes, placementTests } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { memoryLogger } from "@/lib/log";
import { makeWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { type MailNetwork, startMailNetwork } from "@/test/peers/mail-network";
import { encryptSecret } from "@/lib/crypto/secretbox";
import { READ_EVERY_MS, runPlacementReads } from "./run";
import { startPlacementTest } from "./start";

const clock = new ManualClock(new Date("2026-11-10T10:00:00Z"));
let net: MailNetwork;
beforeAll(async () => {
  net = await startMailNetwork({ accounts: { "from@run.test": "pf", "seed@run.test": "ps" } });
  useClock(clock);
});
afterAll(async () => {
  useClock(systemClock);
  await net.close();
});

/** A mailbox row on the network: SMTP through its one server, IMAP on the account's own store. */
function onNetwork(workspaceId: string, email: string, isSeed: boolean) {
  const a = net.account(email);
  return insertMailbox(workspaceId, email, {
    isSeed,
    smtpHost: net.smtp.host,
    smtpPort: net.smtp.port,
    smtpPasswordEnc: encryptSecret(a.password),
    imapHost: a.imap.host,
    imapPort: a.imap.port,
    imapPasswordEnc: encryptSecret(a.password),
  });
}

describe("the placement job", () => {
  it("lets one of two workers running at once read a test; the test finishes and fires placement.completed once", async () => {
    const ws = await makeWorkspace();
    const from = await onNetwork(ws.workspaceId, "from@run.test", false);
    await onNetwork(ws.workspaceId, "seed@run.test", true);
    const ctx = { ...systemCtx(ws.workspaceId, { clock }), log: memoryLogger() };
    const started = await startPlacementTest(ctx, { mailboxId: from.id });
    expect(started).toMatchObject({ status: "RUNNING", seedCount: 1 });
    const job = () => runPlacementReads(systemCtx(undefined, { clock }));
    const [a, b] = await Promise.all([job(), job()]);
    expect([a.tests, b.tests].sort()).toEqual([0, 1]); // SKIP LOCKED and the lease keep the second out
    expect([a.completed, b.completed].filter(Boolean)).toEqual([1]);
    clock.advance(READ_EVERY_MS);
    expect(await Promise.all([job(), job()])).toEqual([{ tests: 0 }, { tests: 0 }]);
    const [t] = await getDb().select().from(placementTests).where(eq(placementTests.id, started.id));
    expect(t).toMatchObject({ status: "COMPLETED", inboxCount: 1, leaseUntil: null });
    const evs = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, ws.workspaceId), eq(events.event, "placement.completed")));
    expect(evs).toHaveLength(1);
  }, 30_000);

  it("reads a seed again on a later pass when it could not be reached, then MISSING at the deadline", async () => {
    const ws = await makeWorkspace();
    const from = await onNetwork(ws.workspaceId, "from@run.test", false);
    const seed = await onNetwork(ws.workspaceId, "seed@run.test", true);
    const log = memoryLogger();
    const started = await startPlacementTest({ ...systemCtx(ws.workspaceId, { clock }), log }, { mailboxId: from.id });
    // The seed's IMAP password changed: it cannot be read (the probe did arrive).
    await getDb()
      .update(mailboxes)
      .set({ imapPasswordEnc: encryptSecret("stale") })
      .where(eq(mailboxes.id, seed.id));
    const job = () => runPlacementReads({ ...systemCtx(undefined, { clock }), log });
    expect(await job()).toMatchObject({ tests: 1, read: 1, found: 0, completed: 0 });
    expect(log.lines.some((l) => l.message === "placement: seed unreadable")).toBe(true);
    clock.advance(601_000);
    expect(await job()).toMatchObject({ tests: 1, completed: 1 });
    const [t] = await getDb().select().from(placementTests).where(eq(placementTests.id, started.id));
    expect(t).toMatchObject({ status: "COMPLETED", inboxCount: 0, missingCount: 1 });
  }, 30_000);
});
