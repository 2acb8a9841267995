import { killWorker, startWorker as spawnWorker } from "@/test/worker";
import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { campaignLeads, emails } from "@/db/schema";
import { connectMailboxes, launchCampaign, mailSuite } from "@/test/campaign-setup";

const suite = mailSuite({
  domain: "crash.test",
  users: { "a@crash.test": "pw", "b@crash.test": "pw", "c@crash.test": "pw" },
  dataDelayMs: 120,
});

const startWorker = () => spawnWorker();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Three mailboxes sending 30 leads two steps, any day, without gaps. */
async function launchCrashCampaign(): Promise<string> {
  const pool = await connectMailboxes(
    suite.ws.fullKey,
    ["a", "b", "c"].map((e) => ({ email: `${e}@crash.test`, appPassword: "pw" })),
  );
  const { campaign } = await launchCampaign(suite.ws.fullKey, {
    campaign: { name: "Crash", minGapMinutes: 0, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
    steps: [
      { stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: "Hello" },
      { stepOrder: 1, bodyTemplate: "Again", delayHoursAfterPrevious: 0 },
    ],
    mailboxIds: pool.map((m) => m.id),
    leads: Array.from({ length: 30 }, (_, i) => ({ email: `l${i}@sink.test`, firstName: `L${i}` })),
  });
  return campaign.id;
}

/** Ids of this campaign's emails claimed for sending and not recorded as sent (a crash victim stays so). */
async function sendingIds(campaignId: string): Promise<Set<string>> {
  const rows = await getDb()
    .select({ id: emails.id })
    .from(emails)
    .where(and(eq(emails.campaignId, campaignId), eq(emails.status, "SENDING")));
  return new Set(rows.map((r) => r.id));
}

/**
 * Crashes the worker (SIGKILL: no clean-up of any kind) while an email is in flight: once the worker has
 * committed a new SENDING row (the SMTP conversation then takes at least the sink's data delay), within a
 * few random milliseconds. Returns, per round, how many emails the kill cut off, read from the database
 * after the kill: rows still SENDING that were not SENDING before the round.
 */
async function crashWhileSending(campaignId: string, rounds: number): Promise<number[]> {
  const cutOff: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const earlier = await sendingIds(campaignId);
    const w = startWorker();
    const deadline = Date.now() + 15_000;
    const fresh = async () => [...(await sendingIds(campaignId))].filter((id) => !earlier.has(id)).length;
    while ((await fresh()) === 0 && Date.now() < deadline) await sleep(5);
    await sleep(Math.floor(Math.random() * 30));
    await killWorker(w);
    cutOff.push(await fresh());
    // Leases held by the dead worker run out (2 minutes); move them back instead of waiting.
    await getDb().execute(sql`update mailboxes set send_lease_until = null`);
  }
  return cutOff;
}

/** One worker runs until the campaign has nothing left to send (or a minute has passed). */
async function finishSending(campaignId: string) {
  const w = startWorker();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const n = await getDb().$count(campaignLeads, and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.status, "ACTIVE")));
    if (n === 0 || Date.now() > deadline) break;
    await sleep(100);
  }
  await killWorker(w);
}

describe("at most once, across crashes", () => {
  it("kills the sidecar mid-send again and again: no lead ever gets an email twice, and no state is lost", async () => {
    const campaignId = await launchCrashCampaign();
    const cutOff = await crashWhileSending(campaignId, 6);
    await finishSending(campaignId);
    // Every kill landed while at least one email was in flight (claimed, its SMTP conversation unfinished).
    expect(cutOff.filter((n) => n === 0)).toEqual([]);

    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, campaignId));
    // The sink: no (lead, step) received twice.
    const seen = new Map<string, number>();
    for (const r of suite.world.smtp.received) {
      const key = `${r.to[0]}|${r.parsed.subject?.startsWith("Re:") ? 1 : 0}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect([...seen.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // The database: one email row per (lead, step); crash victims stay SENDING and are never resent.
    const perStep = new Map<string, number>();
    for (const r of rows) perStep.set(`${r.leadEmail}|${r.stepOrder}`, (perStep.get(`${r.leadEmail}|${r.stepOrder}`) ?? 0) + 1);
    expect([...perStep.values()].every((n) => n === 1)).toBe(true);
    expect(rows.every((r) => r.status === "SENT" || r.status === "SENDING")).toBe(true);
    expect(suite.world.smtp.received.length).toBeGreaterThanOrEqual(rows.filter((r) => r.status === "SENT").length);
    expect(suite.world.smtp.received.length).toBeLessThanOrEqual(rows.length);
    // No lost state: every lead finished its sequence (its two steps recorded, sent or stuck in SENDING).
    const leadsLeft = await getDb().select().from(campaignLeads).where(eq(campaignLeads.campaignId, campaignId));
    expect(leadsLeft.every((l) => l.status === "COMPLETED")).toBe(true);
    expect(rows.length).toBe(60);
    console.log(
      `crash test: ${rows.filter((r) => r.status === "SENDING").length} emails were cut off mid-send; the sink got ${suite.world.smtp.received.length} of 60`,
    );
  }, 300_000);
});
