import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";
import { ManualClock } from "@/lib/clock";
import { health } from "@/lib/health";
import { jobs } from "./functions";
import { LocalRunner } from "./runner";

describe("the worker's local runner", () => {
  it("runs each job on its interval, records the run, and health shows the last tick", async () => {
    const clock = new ManualClock(new Date("2026-11-02T10:00:00Z"));
    const db = getDb();
    await db.insert(rateLimitCounters).values([
      { key: "rl:old", points: 3, expire: new Date("2026-11-02T08:00:00Z") },
      { key: "rl:live", points: 3, expire: new Date("2026-11-02T10:00:30Z") },
    ]);
    expect((await health()).worker.lastTickAt).toBeNull();
    const runner = new LocalRunner(db, clock, jobs);
    await runner.tick();
    const keys = (await db.select().from(rateLimitCounters)).map((r) => r.key);
    expect(keys).toEqual(["rl:live"]);
    const [run] = (await db.execute(sql`select last_result from job_runs where name = 'maintenance-cleanup'`)) as unknown as {
      last_result: any;
    }[];
    expect(run.last_result).toEqual({
      rateLimitCountersDeleted: 1,
      webhookDeliveriesDeleted: 0,
      uploadsDeleted: 0,
      idempotencyKeysDeleted: 0,
      auditRowsDeleted: 0,
      trackingHitsDeleted: 0,
      emailBodiesCleared: 0,
    });
    expect((await health()).worker.lastTickAt).toBe("2026-11-02T10:00:00.000Z");

    // Not due again until its interval has passed.
    await db.insert(rateLimitCounters).values({ key: "rl:old2", points: 1, expire: new Date("2026-11-02T08:00:00Z") });
    clock.advance(60_000);
    await runner.tick();
    expect((await db.select().from(rateLimitCounters)).length).toBe(2);
    clock.advance(5 * 60_000);
    await runner.tick();
    expect((await db.select().from(rateLimitCounters)).map((r) => r.key)).toEqual(["rl:live"]);
  });
});
