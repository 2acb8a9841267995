import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events, mailboxes, mailboxWarmups, warmupDays, warmupMessages } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { systemCtx } from "@/lib/ctx";
import { newId } from "@/lib/ids";
import { insertMailbox } from "@/test/factories";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { POST as START } from "@/app/api/v1/mailboxes/[id]/start-warmup/route";
import { POST as STOP } from "@/app/api/v1/mailboxes/[id]/stop-warmup/route";
import { POST as RESUME } from "@/app/api/v1/mailboxes/[id]/resume-warmup/route";
import { advanceWarmupDays } from "./days";
import { runWarmup } from "./job";
import { answerNext, dayRatePct } from "./receive";
import { rampStatus, resolveSettings, todayTarget } from "../mailboxes/warmup-ramp";
import { nextDueAt, sendDueAnswers } from "./send";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
afterEach(() => useClock(systemClock));

const DAY = 86_400_000;
const post = (h: typeof START, id: string, action: string, body: unknown = {}) =>
  call(h, "POST", `/mailboxes/${id}/${action}`, { key: ws.fullKey, params: { id }, body });
const moves = async (mailboxId: string) =>
  (
    await getDb()
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, ws.workspaceId), eq(events.event, "warmup.status_changed")))
  )
    .filter((e) => e.data.mailboxId === mailboxId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .map((e) => `${e.data.from}→${e.data.to}:${e.data.reason}`);
const ramp = async (id: string) => (await getDb().select().from(mailboxWarmups).where(eq(mailboxWarmups.mailboxId, id)))[0];

describe("the ramp's rules", () => {
  it("today's target, the status by day and the settings fall-backs", () => {
    const s = resolveSettings({ startingVolume: 1, dailyIncrease: 1, targetVolume: 20 }, null);
    expect([0, 5, 13, 14, 18, 19, 30].map((d) => todayTarget(s, d))).toEqual([1, 6, 14, 15, 19, 20, 20]);
    expect([0, 13, 14, 18, 19, 40].map((d) => rampStatus(s, d))).toEqual(["EARLY", "EARLY", "RAMPING", "RAMPING", "STEADY", "STEADY"]);
    // The target reached before day 14 is still EARLY, then STEADY without RAMPING.
    const fast = resolveSettings({}, null);
    expect([6, 13, 14].map((d) => [todayTarget(fast, d), rampStatus(fast, d)])).toEqual([
      [40, "EARLY"],
      [40, "EARLY"],
      [40, "STEADY"],
    ]);
    expect(resolveSettings({ targetVolume: 30 }, { startingVolume: 4, targetVolume: 25 })).toEqual({
      startingVolume: 4,
      dailyIncrease: 5,
      targetVolume: 30,
      replyRateMinPct: 25,
      replyRateMaxPct: 35,
    });
  });

  it("pacing spreads a day's target evenly; answers keep the day's share at a rate between min and max", () => {
    const start = new Date("2026-11-02T08:00:00Z");
    expect(nextDueAt(start, 0, 10, 36_000)?.toISOString()).toBe("2026-11-02T08:00:00.000Z");
    expect(nextDueAt(start, 5, 10, 36_000)?.toISOString()).toBe("2026-11-02T13:00:00.000Z");
    expect(nextDueAt(start, 10, 10, 36_000)).toBeNull();
    for (const [min, max] of [
      [25, 35],
      [0, 0],
      [100, 100],
      [40, 60],
    ]) {
      const rate = dayRatePct("mbx_x", "2026-11-02", min, max);
      expect(rate).toBeGreaterThanOrEqual(min);
      expect(rate).toBeLessThanOrEqual(max);
      let answered = 0;
      for (let n = 0; n < 200; n++) if (answerNext(n, answered, rate)) answered++;
      expect(answered / 200).toBeCloseTo(rate / 100, 2);
    }
  });
});

describe("a 30-day ramp on the injectable clock", () => {
  it("moves day by day: dayIndex, today's target, EARLY → RAMPING → STEADY with one event each; paused days do not count", async () => {
    const clock = new ManualClock(new Date("2026-10-01T06:00:00Z"));
    useClock(clock);
    const m = await insertMailbox(ws.workspaceId, "ramp@warm.test");
    await post(START, m.id, "start-warmup", { startingVolume: 1, dailyIncrease: 1, targetVolume: 20 });
    const seen: [number, number][] = [];
    for (let day = 1; day <= 30; day++) {
      clock.advance(DAY);
      await advanceWarmupDays(getDb(), clock.now());
      await advanceWarmupDays(getDb(), clock.now()); // twice in a day changes nothing
      const w = await ramp(m.id);
      seen.push([w.dayIndex, todayTarget(w, w.dayIndex)]);
      if (day === 10) {
        // Paused for three days mid-ramp: those days do not count.
        await post(STOP, m.id, "stop-warmup");
        clock.advance(3 * DAY);
        await advanceWarmupDays(getDb(), clock.now());
        expect((await ramp(m.id)).dayIndex).toBe(10);
        expect((await post(RESUME, m.id, "resume-warmup")).body).toEqual({ dayIndex: 10, resumedMidRamp: true, warmupStatus: "EARLY" });
      }
    }
    expect(seen.slice(0, 3)).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(seen[13]).toEqual([14, 15]);
    expect(seen.at(-1)).toEqual([30, 20]);
    expect(await moves(m.id)).toEqual([
      "OFF→EARLY:started",
      "EARLY→PAUSED:paused",
      "PAUSED→EARLY:resumed",
      "EARLY→RAMPING:next_stage",
      "RAMPING→STEADY:steady",
    ]);
    const [row] = await getDb().select().from(mailboxes).where(eq(mailboxes.id, m.id));
    expect(row.warmupStatus).toBe("STEADY");
    // The chart has a row per calendar day of active warmup with its target: the start, 30 days moved on,
    // and the resume day (day 10 again); the paused days have none.
    const days = await getDb().select().from(warmupDays).where(eq(warmupDays.mailboxId, m.id));
    expect(days).toHaveLength(32);
    expect(days.filter((d) => d.dayIndex === 10).map((d) => d.day)).toEqual(["2026-10-11", "2026-10-14"]);
    expect(days.find((d) => d.dayIndex === 14)?.target).toBe(15);
  });

  it("a bounce pause shows as AUTO_PAUSED and lifts with it; LOGIN_FAILING and AUTO_PAUSED mailboxes send no warmup", async () => {
    const clock = new ManualClock(new Date("2026-11-10T07:00:00Z"));
    useClock(clock);
    const a = await insertMailbox(ws.workspaceId, "auto@warm.test");
    const b = await insertMailbox(ws.workspaceId, "partner@warm.test");
    await post(START, a.id, "start-warmup");
    await post(START, b.id, "start-warmup");
    await getDb().update(mailboxes).set({ autoPausedAt: clock.now() }).where(eq(mailboxes.id, a.id));
    await getDb().update(mailboxes).set({ loginFailingSince: clock.now() }).where(eq(mailboxes.id, b.id));
    const ctx = systemCtx(undefined, { db: getDb(), clock });
    await runWarmup(ctx);
    clock.advance(DAY / 2);
    await runWarmup(ctx);
    expect(await getDb().select().from(warmupMessages).where(eq(warmupMessages.workspaceId, ws.workspaceId))).toEqual([]);
    expect((await getDb().select().from(mailboxes).where(eq(mailboxes.id, a.id)))[0].warmupStatus).toBe("AUTO_PAUSED");
    await getDb().update(mailboxes).set({ autoPausedAt: null }).where(eq(mailboxes.id, a.id));
    clock.advance(DAY);
    await advanceWarmupDays(getDb(), clock.now());
    // The auto-paused day did not count: day 0 continues.
    expect((await ramp(a.id)).dayIndex).toBe(0);
    expect(await moves(a.id)).toEqual(["OFF→EARLY:started", "EARLY→AUTO_PAUSED:bounce_spike", "AUTO_PAUSED→EARLY:auto_pause_lifted"]);
  });
});

describe("planned answers", () => {
  it("a LOGIN_FAILING or AUTO_PAUSED mailbox sends none of its due answers: they stay PLANNED until it can send", async () => {
    const at = new Date("2026-11-12T09:00:00Z");
    const failing = await insertMailbox(ws.workspaceId, "answer-login@warm.test", { loginFailingSince: at });
    const paused = await insertMailbox(ws.workspaceId, "answer-paused@warm.test", { autoPausedAt: at });
    const partner = await insertMailbox(ws.workspaceId, "answer-partner@warm.test");
    const planned = [failing, paused].map((m) => ({
      id: newId("wum"),
      workspaceId: ws.workspaceId,
      fromMailboxId: m.id,
      toMailboxId: partner.id,
      toEmail: partner.email,
      warmingMailboxId: partner.id,
      conversationId: newId("wum"),
      depth: 1,
      messageId: `<${newId("wum")}@warm.test>`,
      subject: "Re: Catching up",
      bodyText: "Thanks, sounds good.",
      status: "PLANNED" as const,
      dueAt: new Date(at.getTime() - 60_000),
      day: "2026-11-12",
    }));
    await getDb().insert(warmupMessages).values(planned);
    expect(await sendDueAnswers(getDb(), () => at)).toBe(0);
    const rows = await getDb()
      .select()
      .from(warmupMessages)
      .where(
        inArray(
          warmupMessages.id,
          planned.map((p) => p.id),
        ),
      );
    expect(rows.map((r) => r.status)).toEqual(["PLANNED", "PLANNED"]);
  });
});
