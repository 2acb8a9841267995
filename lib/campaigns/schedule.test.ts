import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails } from "@/db/schema";
import { ManualClock, systemClock, useClock } from "@/lib/clock";
import { sendDue } from "@/lib/sending/engine";
import { closeAllTransports } from "@/lib/sending/transports";
import { call, makeWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { PATCH as PATCH_MAILBOX } from "@/app/api/v1/mailboxes/[id]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";
import { GET as SCHEDULE } from "@/app/api/v1/campaigns/[id]/schedule/route";

afterAll(() => {
  useClock(systemClock);
  closeAllTransports();
});

describe("GET /campaigns/<id>/schedule", () => {
  it("forecasts per mailbox and day what the engine then really sends", async () => {
    const world = await startMailWorld({ domain: "fc.test", users: { "x@fc.test": "pw", "y@fc.test": "pw" } });
    const ws = await makeWorkspace();
    const clock = new ManualClock(new Date("2026-11-02T06:00:00Z")); // Monday
    useClock(clock);
    const ids: string[] = [];
    for (const [e, cap] of [
      ["x", 3],
      ["y", 4],
    ] as const) {
      const id = (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: `${e}@fc.test` }, body: { appPassword: "pw" } })).body
        .id;
      await call(PATCH_MAILBOX, "PATCH", "", { key: ws.fullKey, params: { id }, body: { dailySendCap: cap } });
      ids.push(id);
    }
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
        key: ws.fullKey,
        body: { name: "F", defaultTimezone: "Europe/Berlin", minGapMinutes: 0, startAt: "2026-11-03T00:00:00Z" },
      })
    ).body;
    await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: {
        steps: [
          { stepOrder: 0, subject: "S", bodyTemplate: "B" },
          { stepOrder: 1, bodyTemplate: "F", delayHoursAfterPrevious: 24 },
        ],
      },
    });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: ids } });
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: ws.fullKey,
        body: { leads: Array.from({ length: 30 }, (_, i) => ({ email: `f${i}@leads.test` })) },
      })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds } });
    await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } });

    const f = (await call(SCHEDULE, "GET", "/campaigns/x/schedule?days=7", { key: ws.readKey, params: { id: c.id } })).body;
    expect(f.totals.map((d: any) => d.date)).toEqual([
      "2026-11-02",
      "2026-11-03",
      "2026-11-04",
      "2026-11-05",
      "2026-11-06",
      "2026-11-07",
      "2026-11-08",
    ]);
    expect(f.totals[0]).toMatchObject({ firstEmails: 0, followUps: 0 }); // before startAt
    expect(f.totals[5]).toMatchObject({ firstEmails: 0, followUps: 0 }); // Saturday
    expect(f.totals[1].firstEmails + f.totals[1].followUps).toBe(7); // caps 3 + 4
    expect(f.upcoming[0]).toMatchObject({ stepOrder: 0, at: "2026-11-03T08:00:00.000Z" }); // 09:00 Berlin
    expect(f.notes.join(" ")).toContain("Nothing is sent before");

    // Caps bind every sending day, so 10-minute ticks give the same daily counts as the forecast's 5.
    for (let t = 0; t < 7 * 144; t++) {
      await sendDue(getDb(), clock);
      clock.advance(10 * 60_000);
    }
    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, c.id));
    const actual = new Map<string, number>();
    for (const r of rows)
      actual.set(
        `${r.mailboxId}|${r.createdAt.toISOString().slice(0, 10)}`,
        (actual.get(`${r.mailboxId}|${r.createdAt.toISOString().slice(0, 10)}`) ?? 0) + 1,
      );
    for (const m of f.mailboxes) {
      for (const d of m.perDay)
        expect([m.email, d.date, actual.get(`${m.mailboxId}|${d.date}`) ?? 0]).toEqual([m.email, d.date, d.firstEmails + d.followUps]);
    }
    const firstSend = rows.map((r) => r.createdAt.toISOString()).sort()[0];
    expect(firstSend).toBe(f.upcoming[0].at);
    await world.close();
  }, 120_000);
});
