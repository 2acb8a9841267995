import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { selectRows } from "@/db/bulk";
import { campaignLeads, campaigns, emailEvents, emails, leads, rateLimitCounters } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { newId } from "@/lib/ids";
import { insertEmail, insertMailbox } from "@/test/factories";
import { makeWorkspace } from "@/test/helpers";
import { runCleanup } from "./cleanup";
import { CLEANUP_LEASE_MS, takeCleanupLease } from "./lease";

const DAY = 86_400_000;

describe("one clean-up at a time", () => {
  it("a run that finds the lease held does nothing; a crashed holder's lease frees after its time; a finished run frees it at once", async () => {
    const clock = new ManualClock(new Date("2027-01-10T10:00:00Z"));
    const ctx = systemCtx(undefined, { clock });
    const window = (key: string) => ({ key, points: 1, expire: new Date(clock.now().getTime() - 2 * 3600_000) });
    await getDb().insert(rateLimitCounters).values(window("rl:held"));
    expect(await takeCleanupLease(getDb(), clock.now())).toBeDefined(); // a run that never finishes (crashed)
    const held = await runCleanup(ctx);
    expect([held.skipped, held.rateLimitCountersDeleted]).toEqual(["another run holds the clean-up lease", 0]);
    clock.advance(CLEANUP_LEASE_MS - 1);
    expect((await runCleanup(ctx)).skipped).toBeDefined();
    clock.advance(2);
    const freed = await runCleanup(ctx);
    expect([freed.skipped, freed.rateLimitCountersDeleted]).toEqual([undefined, 1]);
    expect((await runCleanup(ctx)).skipped).toBeUndefined(); // the finished run gave it back
  });
});

describe("sending does not wait for the clean-up", () => {
  it("while a clean-up holds its locks, new emails, tracking hits on old ones and campaign-lead updates go through at once", async () => {
    const now = new Date("2027-06-01T12:00:00Z");
    const ws = await makeWorkspace();
    const w = ws.workspaceId;
    const mbx = await insertMailbox(w, `lk@${w}.test`);
    const old: string[] = [];
    for (let i = 0; i < 30; i++)
      old.push(await insertEmail(w, mbx.id, { createdAt: new Date(now.getTime() - 200 * DAY), bodyText: "old" }));
    await getDb()
      .insert(emailEvents)
      .values(
        old.map((emailId, i) => ({
          id: `eev_lk_${i}`,
          workspaceId: w,
          emailId,
          kind: "OPEN" as const,
          createdAt: new Date(now.getTime() - 100 * DAY),
          settledAt: now,
        })),
      );
    const recent = await insertEmail(w, mbx.id, { createdAt: now, bodyText: "new" });
    const cmp = newId("cmp");
    const lead = newId("lead");
    await getDb().insert(campaigns).values({ id: cmp, workspaceId: w, name: "C", status: "ACTIVE" });
    await getDb().insert(leads).values({ id: lead, workspaceId: w, email: "l@lk.test" });
    await getDb()
      .insert(campaignLeads)
      .values({ workspaceId: w, campaignId: cmp, leadId: lead, mailboxId: mbx.id, status: "ACTIVE", nextStepOrder: 1 });

    // The whole clean-up inside one open transaction: every row lock it takes is held until the test lets go.
    await getDb().transaction(async (tx) => {
      const done = await runCleanup(systemCtx(undefined, { db: tx, clock: new ManualClock(now) }));
      const [{ pid }] = await selectRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      // Table locks no stronger than a plain delete's or update's: nothing that stops inserts or updates of other rows.
      const modes = await selectRows<{ mode: string }>(
        getDb(),
        sql`select distinct mode from pg_locks where pid = ${pid} and locktype = 'relation'`,
      );
      expect(modes.map((m) => m.mode).filter((m) => !["AccessShareLock", "RowShareLock", "RowExclusiveLock"].includes(m))).toEqual([]);
      // Another connection, told to fail rather than wait for any lock: what sending writes goes through.
      await getDb().transaction(async (send) => {
        await send.execute(sql`set local lock_timeout = '1ms'`);
        await send.insert(emailEvents).values({ id: "eev_lk_new", workspaceId: w, emailId: old[0], kind: "CLICK", createdAt: now });
        await send.update(emails).set({ status: "SENT", sentAt: now }).where(sql`${emails.id} = ${recent}`);
        await send.update(campaignLeads).set({ nextStepOrder: 2 }).where(sql`${campaignLeads.leadId} = ${lead}`);
        await send.insert(emails).values({
          id: newId("eml"),
          workspaceId: w,
          mailboxId: mbx.id,
          leadEmail: "x@lk.test",
          campaignId: cmp,
          messageId: `<${newId("eml")}@lk.test>`,
          subject: "s",
          status: "SENDING",
        });
      });
      expect([done.emailBodiesCleared, done.trackingHitsDeleted]).toEqual([30, 30]);
    });
  });
});
