import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events, mailboxWarmups, warmupDays } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { GET as GET_ONE, PATCH as PATCH_MAILBOX } from "./[id]/route";
import { POST as START } from "./[id]/start-warmup/route";
import { POST as STOP } from "./[id]/stop-warmup/route";
import { POST as RESUME } from "./[id]/resume-warmup/route";
import { PATCH as PATCH_WARMUP } from "./[id]/warmup/route";
import { POST as BULK_RESUME } from "./bulk-resume-warmup/route";
import { GET as PRESETS } from "../warmup/presets/route";
import { PUT as PUT_PRESET } from "../warmup/presets/[class]/route";

let ws: TestWorkspace;
let other: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
  other = await makeWorkspace();
});
afterEach(() => useClock(systemClock));

const post = (h: typeof START, id: string, action: string, body: unknown = {}, key = ws.fullKey) =>
  call(h, "POST", `/mailboxes/${id}/${action}`, { key, params: { id }, body });

const statusEvents = async (workspaceId: string, mailboxId: string) =>
  (
    await getDb()
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.event, "warmup.status_changed")))
  )
    .filter((e) => e.data.mailboxId === mailboxId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((e) => [e.data.from, e.data.to, e.data.reason]);

describe("warmup routes", () => {
  it("start begins day 0 with the defaults, shows the warmup object, and emits OFF → EARLY once; a second start restarts at day 0", async () => {
    const clock = new ManualClock(new Date("2026-11-02T09:00:00Z"));
    useClock(clock);
    const m = await insertMailbox(ws.workspaceId, "start@warm.test");
    const r = await post(START, m.id, "start-warmup");
    expect(r.status).toBe(200);
    expect(r.body.warmupStatus).toBe("EARLY");
    expect(r.body.warmup).toMatchObject({
      dayIndex: 0,
      startingVolume: 10,
      dailyIncrease: 5,
      targetVolume: 40,
      replyRateMinPct: 25,
      replyRateMaxPct: 35,
      todayTarget: 10,
      sentToday: 0,
      repliedToday: 0,
      startedAt: "2026-11-02T09:00:00.000Z",
      pausedAt: null,
    });
    // The fields of warmup.status_changed, exactly.
    const [ev] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, ws.workspaceId), eq(events.event, "warmup.status_changed")));
    expect(ev.data).toEqual({
      mailboxId: m.id,
      mailboxEmail: "start@warm.test",
      from: "OFF",
      to: "EARLY",
      reason: "started",
      changedAt: "2026-11-02T09:00:00.000Z",
    });
    // Mid-ramp, then a restart: back to day 0 with the new settings; EARLY → EARLY is no change, so no event.
    await getDb().update(mailboxWarmups).set({ dayIndex: 6 }).where(eq(mailboxWarmups.mailboxId, m.id));
    clock.advance(60_000);
    const again = await post(START, m.id, "start-warmup", { startingVolume: 3 });
    expect(again.body.warmup).toMatchObject({ dayIndex: 0, startingVolume: 3, todayTarget: 3, startedAt: "2026-11-02T09:01:00.000Z" });
    expect(await statusEvents(ws.workspaceId, m.id)).toEqual([["OFF", "EARLY", "started"]]);
    const days = await getDb().select().from(warmupDays).where(eq(warmupDays.mailboxId, m.id));
    expect(days.map((d) => [d.day, d.dayIndex, d.target])).toEqual([["2026-11-02", 0, 3]]);
  });

  it("stop pauses and keeps the day; resume continues on the day reached (resumedMidRamp) and emits PAUSED → stage", async () => {
    useClock(new ManualClock(new Date("2026-11-03T10:00:00Z")));
    const m = await insertMailbox(ws.workspaceId, "pause@warm.test");
    await post(START, m.id, "start-warmup", { startingVolume: 5, dailyIncrease: 2, targetVolume: 80 });
    await getDb().update(mailboxWarmups).set({ dayIndex: 16 }).where(eq(mailboxWarmups.mailboxId, m.id));
    await call(PATCH_WARMUP, "PATCH", `/mailboxes/${m.id}/warmup`, { key: ws.fullKey, params: { id: m.id }, body: { dailyIncrease: 3 } });
    const stopped = await post(STOP, m.id, "stop-warmup");
    expect(stopped.body).toMatchObject({ warmupStatus: "PAUSED", warmup: { dayIndex: 16, pausedAt: "2026-11-03T10:00:00.000Z" } });
    // Stopping again changes nothing (no second event).
    expect((await post(STOP, m.id, "stop-warmup")).body.warmupStatus).toBe("PAUSED");
    useClock(new ManualClock(new Date("2026-11-09T08:00:00Z")));
    const resumed = await post(RESUME, m.id, "resume-warmup");
    expect(resumed.status).toBe(200);
    // Day 16: 5 + 16 × 3 = 53 < 80, so RAMPING.
    expect(resumed.body).toEqual({ dayIndex: 16, resumedMidRamp: true, warmupStatus: "RAMPING" });
    expect(await statusEvents(ws.workspaceId, m.id)).toEqual([
      ["OFF", "EARLY", "started"],
      ["EARLY", "RAMPING", "settings_changed"],
      ["RAMPING", "PAUSED", "paused"],
      ["PAUSED", "RAMPING", "resumed"],
    ]);
    const [w] = await getDb().select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, m.id));
    expect(w.day).toBe("2026-11-09");
  });

  it("a mailbox paused before 26 Sep 2026 restarts at day 0 on resume (resumedMidRamp false)", async () => {
    useClock(new ManualClock(new Date("2026-09-20T10:00:00Z")));
    const m = await insertMailbox(ws.workspaceId, "old-pause@warm.test");
    await post(START, m.id, "start-warmup");
    await getDb().update(mailboxWarmups).set({ dayIndex: 20 }).where(eq(mailboxWarmups.mailboxId, m.id));
    await post(STOP, m.id, "stop-warmup");
    useClock(new ManualClock(new Date("2026-11-04T10:00:00Z")));
    const r = await post(RESUME, m.id, "resume-warmup");
    expect(r.body).toEqual({ dayIndex: 0, resumedMidRamp: false, warmupStatus: "EARLY" });
    // Paused on the 26th itself: continues.
    useClock(new ManualClock(new Date("2026-09-26T00:00:00Z")));
    const n = await insertMailbox(ws.workspaceId, "new-pause@warm.test");
    await post(START, n.id, "start-warmup");
    await getDb().update(mailboxWarmups).set({ dayIndex: 20 }).where(eq(mailboxWarmups.mailboxId, n.id));
    await post(STOP, n.id, "stop-warmup");
    useClock(new ManualClock(new Date("2026-11-04T10:00:00Z")));
    expect((await post(RESUME, n.id, "resume-warmup")).body).toEqual({ dayIndex: 20, resumedMidRamp: true, warmupStatus: "STEADY" });
  });

  it("an address warming in another workspace: 409 CONFLICT on start and resume, and bulk resume skips it with the reason", async () => {
    const mine = await insertMailbox(ws.workspaceId, "shared@warm.test");
    const theirs = await insertMailbox(other.workspaceId, "Shared@warm.test");
    const free = await insertMailbox(ws.workspaceId, "free@warm.test");
    await post(START, mine.id, "start-warmup");
    await post(STOP, mine.id, "stop-warmup");
    await post(START, free.id, "start-warmup");
    await post(STOP, free.id, "stop-warmup");
    expect((await post(START, theirs.id, "start-warmup", {}, other.fullKey)).status).toBe(200);
    const refused = await post(START, mine.id, "start-warmup");
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("CONFLICT");
    expect(refused.body.error).toMatch(/shared@warm\.test is already warming in another workspace/);
    expect((await post(RESUME, mine.id, "resume-warmup")).status).toBe(409);
    const bulk = await call(BULK_RESUME, "POST", "/mailboxes/bulk-resume-warmup", {
      key: ws.fullKey,
      body: { mailboxIds: [mine.id, free.id, "mbx_nope", theirs.id] },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.resumed).toEqual([free.id]);
    expect(bulk.body.skipped).toEqual([
      { mailboxId: mine.id, email: "shared@warm.test", reason: expect.stringMatching(/already warming in another workspace/) },
      { mailboxId: "mbx_nope", email: null, reason: "Mailbox not found" },
      // Another workspace's mailbox is not found from here.
      { mailboxId: theirs.id, email: null, reason: "Mailbox not found" },
    ]);
  });

  it("missing fields fall back to the workspace's preset for the provider class, then to the defaults; presets read back", async () => {
    const put = await call(PUT_PRESET, "PUT", "/warmup/presets/GOOGLE", {
      key: ws.fullKey,
      params: { class: "GOOGLE" },
      body: { startingVolume: 4, targetVolume: 25 },
    });
    expect(put.status).toBe(200);
    expect(put.body.presets).toEqual({ GOOGLE: { startingVolume: 4, targetVolume: 25 }, MICROSOFT: null, OTHER: null });
    const g = await insertMailbox(ws.workspaceId, "g@warm.test", { espClass: "GOOGLE" });
    const o = await insertMailbox(ws.workspaceId, "o@warm.test", { espClass: "YAHOO" });
    expect((await post(START, g.id, "start-warmup", { targetVolume: 30 })).body.warmup).toMatchObject({
      startingVolume: 4,
      dailyIncrease: 5,
      targetVolume: 30,
    });
    expect((await post(START, o.id, "start-warmup")).body.warmup).toMatchObject({ startingVolume: 10, targetVolume: 40 });
    expect((await call(PRESETS, "GET", "/warmup/presets", { key: ws.readKey })).body.presets.GOOGLE).toEqual({
      startingVolume: 4,
      targetVolume: 25,
    });
    const cleared = await call(PUT_PRESET, "PUT", "/warmup/presets/GOOGLE", { key: ws.fullKey, params: { class: "GOOGLE" }, body: {} });
    expect(cleared.body.presets.GOOGLE).toBeNull();
    const bad = await call(PUT_PRESET, "PUT", "/warmup/presets/APPLE", { key: ws.fullKey, params: { class: "APPLE" }, body: {} });
    expect(bad.status).toBe(404);
  });

  it("validation: out-of-range integers and min above max are 400 VALIDATION_ERROR with fieldErrors; a read key is 403; never-started is 409", async () => {
    const m = await insertMailbox(ws.workspaceId, "valid@warm.test");
    for (const [body, field] of [
      [{ startingVolume: 0 }, "startingVolume"],
      [{ startingVolume: 51 }, "startingVolume"],
      [{ dailyIncrease: 11 }, "dailyIncrease"],
      [{ targetVolume: 201 }, "targetVolume"],
      [{ targetVolume: 2.5 }, "targetVolume"],
      [{ replyRateMinPct: 60, replyRateMaxPct: 50 }, "replyRateMinPct"],
      [{ replyRateMaxPct: 101 }, "replyRateMaxPct"],
      [{ replyRateMinPct: 50 }, "replyRateMinPct"], // 50 > the default max 35
      [{ volume: 3 }, ""],
    ] as const) {
      const r = await post(START, m.id, "start-warmup", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      if (field) expect(Object.keys(r.body.details.fieldErrors)).toContain(field);
    }
    expect((await getDb().select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, m.id))).length).toBe(0);
    expect((await post(START, m.id, "start-warmup", {}, ws.readKey)).status).toBe(403);
    expect((await post(STOP, m.id, "stop-warmup")).status).toBe(409);
    expect((await post(RESUME, m.id, "resume-warmup")).status).toBe(409);
    const patch = await call(PATCH_WARMUP, "PATCH", `/mailboxes/${m.id}/warmup`, {
      key: ws.fullKey,
      params: { id: m.id },
      body: { targetVolume: 9 },
    });
    expect(patch.status).toBe(409);
    expect((await post(START, "mbx_missing", "start-warmup")).status).toBe(404);
  });

  it("start-warmup takes no body at all (every setting optional); a body that is not JSON is still 400", async () => {
    const m = await insertMailbox(ws.workspaceId, "nobody@warm.test");
    const r = await call(START, "POST", `/mailboxes/${m.id}/start-warmup`, { key: ws.fullKey, params: { id: m.id } });
    expect(r.status).toBe(200);
    expect(r.body.warmup).toMatchObject({ dayIndex: 0, startingVolume: 10 });
    const bad = await call(START, "POST", `/mailboxes/${m.id}/start-warmup`, { key: ws.fullKey, params: { id: m.id }, rawBody: "{oops" });
    expect(bad.status).toBe(400);
  });

  it("isSeed is set through PATCH and shown on the row", async () => {
    const m = await insertMailbox(ws.workspaceId, "seed@warm.test");
    const r = await call(PATCH_MAILBOX, "PATCH", `/mailboxes/${m.id}`, { key: ws.fullKey, params: { id: m.id }, body: { isSeed: true } });
    expect(r.body.isSeed).toBe(true);
    expect((await call(GET_ONE, "GET", `/mailboxes/${m.id}`, { key: ws.readKey, params: { id: m.id } })).body).toMatchObject({
      isSeed: true,
      warmup: null,
    });
  });
});
