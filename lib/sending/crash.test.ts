import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, emails } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "@/app/api/v1/leads/route";
import { PUT as CONNECT } from "@/app/api/v1/mailboxes/by-email/[email]/route";
import { POST as CREATE_CAMPAIGN } from "@/app/api/v1/campaigns/route";
import { PUT as PUT_STEPS } from "@/app/api/v1/campaigns/[id]/steps/route";
import { PUT as PUT_POOL } from "@/app/api/v1/campaigns/[id]/mailboxes/route";
import { POST as ADD_LEADS } from "@/app/api/v1/campaigns/[id]/leads/route";
import { PATCH as STATUS } from "@/app/api/v1/campaigns/[id]/status/route";

let world: Awaited<ReturnType<typeof startMailWorld>>;
let ws: TestWorkspace;
const bin = path.resolve(import.meta.dirname, "../../bin/outreach.mjs");

beforeAll(async () => {
  world = await startMailWorld({
    domain: "crash.test",
    users: { "a@crash.test": "pw", "b@crash.test": "pw", "c@crash.test": "pw" },
    dataDelayMs: 120,
  });
  ws = await makeWorkspace();
}, 60_000);
afterAll(() => world.close());

function startWorker(): ChildProcess {
  // The real sidecar, as `outreach worker` runs it, on this test's database.
  return spawn(process.execPath, [bin, "worker"], { env: { ...process.env, WORKER_TICK_MS: "20" }, stdio: "ignore" });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("at most once, across crashes", () => {
  it("kills the sidecar mid-send again and again: no lead ever gets an email twice, and no state is lost", async () => {
    const ids: string[] = [];
    for (const e of ["a", "b", "c"])
      ids.push(
        (await call(CONNECT, "PUT", "", { key: ws.fullKey, params: { email: `${e}@crash.test` }, body: { appPassword: "pw" } })).body.id,
      );
    const c = (
      await call(CREATE_CAMPAIGN, "POST", "/campaigns", {
        key: ws.fullKey,
        body: { name: "Crash", minGapMinutes: 0, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
      })
    ).body;
    await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      params: { id: c.id },
      body: {
        steps: [
          { stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: "Hello" },
          { stepOrder: 1, bodyTemplate: "Again", delayHoursAfterPrevious: 0 },
        ],
      },
    });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, params: { id: c.id }, body: { mailboxIds: ids } });
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: ws.fullKey,
        body: { leads: Array.from({ length: 30 }, (_, i) => ({ email: `l${i}@sink.test`, firstName: `L${i}` })) },
      })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, params: { id: c.id }, body: { leadIds } });
    await call(STATUS, "PATCH", "", { key: ws.fullKey, params: { id: c.id }, body: { status: "ACTIVE", confirm: true } });

    // Crash the worker at random moments while it sends (SIGKILL: no clean-up of any kind).
    let kills = 0;
    for (let round = 0; round < 6; round++) {
      const w = startWorker();
      const before = world.smtp.received.length;
      const deadline = Date.now() + 15_000;
      while (world.smtp.received.length === before && Date.now() < deadline) await sleep(25);
      await sleep(50 + Math.floor(Math.random() * 300));
      w.kill("SIGKILL");
      kills++;
      await new Promise((r) => w.once("exit", r));
      // Leases held by the dead worker run out (2 minutes); move them back instead of waiting.
      await getDb().execute(sql`update mailboxes set send_lease_until = null`);
    }
    // Then one worker runs until there is nothing left to send.
    const w = startWorker();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [{ n }] = (await getDb().execute(
        sql`select count(*)::int as n from campaign_leads where campaign_id = ${c.id} and status = 'ACTIVE'`,
      )) as unknown as { n: number }[];
      if (n === 0 || Date.now() > deadline) break;
      await sleep(100);
    }
    w.kill("SIGKILL");
    expect(kills).toBe(6);

    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, c.id));
    // The sink: no (lead, step) received twice.
    const seen = new Map<string, number>();
    for (const r of world.smtp.received) {
      const key = `${r.to[0]}|${r.parsed.subject?.startsWith("Re:") ? 1 : 0}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect([...seen.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // The database: one email row per (lead, step); crash victims stay SENDING and are never resent.
    const perStep = new Map<string, number>();
    for (const r of rows) perStep.set(`${r.leadEmail}|${r.stepOrder}`, (perStep.get(`${r.leadEmail}|${r.stepOrder}`) ?? 0) + 1);
    expect([...perStep.values()].every((n) => n === 1)).toBe(true);
    expect(rows.every((r) => r.status === "SENT" || r.status === "SENDING")).toBe(true);
    expect(world.smtp.received.length).toBeGreaterThanOrEqual(rows.filter((r) => r.status === "SENT").length);
    expect(world.smtp.received.length).toBeLessThanOrEqual(rows.length);
    // No lost state: every lead finished its sequence (its two steps recorded, sent or stuck in SENDING).
    const leadsLeft = await getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, c.id));
    expect(leadsLeft.every((l) => l.status === "COMPLETED")).toBe(true);
    expect(rows.length).toBe(60);
    console.log(
      `crash test: ${rows.filter((r) => r.status === "SENDING").length} emails were cut off mid-send; the sink got ${world.smtp.received.length} of 60`,
    );
  }, 180_000);
});
