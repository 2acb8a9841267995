import type { ChildProcess } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { campaignLeads, emails } from "../../db/schema";
import { systemCtx } from "../../lib/ctx";
import { createWebhook } from "../../lib/webhooks/webhooks";
import type { CrashPoint } from "../../lib/jobs/crash-point";
import { connectMailboxes, launchCampaign, mailSuite, workspaceEvents } from "../campaign-setup";
import { killWorker, startWorker } from "../worker";
import { FAST, figure } from "./figures";

/**
 * `kill -9` of the worker at five points of the send path, REPEAT times each —
 * after the claim, after the SENDING commit, during SMTP DATA (the peer kills the worker as DATA
 * starts), after the SMTP accept before the outcome commit, and during the outcome/events write —
 * then one worker finishes the campaign. Zero duplicate emails at the SMTP peer, one row per (lead,
 * step), every row SENT or SENDING (a crash victim stays SENDING and is never resent: at most once),
 * exactly one email.sent event per SENT row and none for any other, and every lead finished.
 */
const REPEAT = FAST ? 4 : 20;
const POINTS: (CrashPoint | "smtp:during-data")[] = [
  "send:after-claim",
  "send:after-sending-commit",
  "smtp:during-data",
  "send:after-accept",
  "send:during-record",
];
const LEADS = FAST ? 60 : 240;

let victim: ChildProcess | undefined;
const suite = mailSuite({
  domain: "crash.test",
  users: { "a@crash.test": "pw", "b@crash.test": "pw", "c@crash.test": "pw" },
  onDataStart: () => {
    if (victim?.pid && victim.exitCode === null) victim.kill("SIGKILL");
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitExit(w: ChildProcess, ms: number): Promise<boolean> {
  if (w.exitCode !== null || w.signalCode !== null) return true;
  return Promise.race([new Promise<boolean>((r) => w.once("exit", () => r(true))), sleep(ms).then(() => false)]);
}

/** Starts a worker armed at `point` and waits until it dies there; returns whether it did. */
async function crashAt(point: (typeof POINTS)[number]): Promise<boolean> {
  const w = point === "smtp:during-data" ? startWorker() : startWorker({ OUTREACH_CRASH_AT: point });
  if (point === "smtp:during-data") victim = w;
  const died = await waitExit(w, 20_000);
  victim = undefined;
  if (!died) await killWorker(w);
  // The dead worker's leases would lapse in two minutes; move them back instead of waiting.
  await getDb().execute(sql`update mailboxes set send_lease_until = null`);
  return died && w.signalCode === "SIGKILL";
}

async function finish(campaignId: string): Promise<void> {
  const w = startWorker();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const n = await getDb().$count(campaignLeads, and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.status, "ACTIVE")));
    if (n === 0 || Date.now() > deadline) break;
    await sleep(100);
  }
  await killWorker(w);
}

describe("kill -9 at five points of the send path", () => {
  it("sends every email at most once, loses no row or event, and finishes every lead", async () => {
    const pool = await connectMailboxes(
      suite.ws.fullKey,
      ["a", "b", "c"].map((e) => ({ email: `${e}@crash.test`, appPassword: "pw" })),
    );
    // Every lead may be sent today: the default cap (20 a mailbox) would stop sending after 60 emails, and the later points would never be reached.
    await getDb().execute(sql`update mailboxes set daily_send_cap = ${LEADS} where workspace_id = ${suite.ws.workspaceId}`);
    // The workers' webhook job takes events out of the outbox as it makes their deliveries: a webhook
    // on email.sent (a closed local port) keeps each one in its delivery, where workspaceEvents finds it.
    process.env.OUTBOUND_ALLOW_HOSTS ??= "127.0.0.1";
    await createWebhook(systemCtx(suite.ws.workspaceId), { url: "http://127.0.0.1:9/crash-hook", events: ["email.sent"] });
    const { campaign } = await launchCampaign(suite.ws.fullKey, {
      campaign: { name: "Crash points", minGapMinutes: 0, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
      steps: [{ stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: "Hello" }],
      mailboxIds: pool.map((m) => m.id),
      leads: Array.from({ length: LEADS }, (_, i) => ({ email: `l${i}@sink.test`, firstName: `L${i}` })),
    });
    const kills: Record<string, number> = {};
    for (const point of POINTS) {
      kills[point] = 0;
      for (let i = 0; i < REPEAT; i++) if (await crashAt(point)) kills[point]++;
    }
    await finish(campaign.id);

    const rows = await getDb().select().from(emails).where(eq(emails.campaignId, campaign.id));
    const received = suite.world.smtp.received;
    const perRecipient = new Map<string, number>();
    for (const r of received) perRecipient.set(r.to[0], (perRecipient.get(r.to[0]) ?? 0) + 1);
    const duplicates = [...perRecipient.values()].filter((n) => n > 1).length;
    const perLead = new Map<string, number>();
    for (const r of rows) perLead.set(r.leadEmail, (perLead.get(r.leadEmail) ?? 0) + 1);
    const sentIds = new Set(rows.filter((r) => r.status === "SENT").map((r) => r.id));
    const eventIds = (await workspaceEvents(suite.ws.workspaceId, "email.sent")).map((e) => String(e.data.sendEventId ?? ""));
    const orphanEvents = eventIds.filter((id) => !sentIds.has(id)).length;
    const missingEvents = [...sentIds].filter((id) => !eventIds.includes(id)).length;
    const stuck = rows.filter((r) => r.status === "SENDING").length;
    const leadsLeft = await getDb().$count(
      campaignLeads,
      and(eq(campaignLeads.campaignId, campaign.id), eq(campaignLeads.status, "ACTIVE")),
    );

    for (const point of POINTS)
      figure({
        suite: "crash",
        name: `kill -9 ${point}`,
        value: `${kills[point]}/${REPEAT}`,
        goal: `${REPEAT}/${REPEAT}`,
        pass: kills[point] === REPEAT,
      });
    figure({ suite: "crash", name: "duplicate emails at the SMTP peer", value: duplicates, goal: "0", pass: duplicates === 0 });
    figure({
      suite: "crash",
      name: "SENT rows without email.sent / events without SENT",
      value: `${missingEvents} / ${orphanEvents}`,
      goal: "0 / 0",
      pass: !missingEvents && !orphanEvents,
    });
    // A kill strands at most the emails in flight then: one per mailbox (3) — at most once, never resent.
    const killsTotal = Object.values(kills).reduce((a, b) => a + b, 0);
    figure({
      suite: "crash",
      name: `emails: ${rows.length} rows, SENDING (cut off, never resent)`,
      value: stuck,
      goal: `≤ ${killsTotal * 3} (kills × 3 mailboxes)`,
      pass: stuck <= killsTotal * 3,
    });
    figure({ suite: "crash", name: "leads left unfinished", value: leadsLeft, goal: "0", pass: leadsLeft === 0 });

    expect(kills).toEqual(Object.fromEntries(POINTS.map((p) => [p, REPEAT])));
    expect(duplicates).toBe(0);
    expect([...perLead.values()].every((n) => n === 1)).toBe(true);
    expect(rows.length).toBe(LEADS);
    expect(rows.every((r) => r.status === "SENT" || r.status === "SENDING")).toBe(true);
    expect([missingEvents, orphanEvents]).toEqual([0, 0]);
    expect(eventIds.length).toBe(new Set(eventIds).size);
    // What the peer accepted is every SENT row plus at most the rows cut off after the accept.
    expect(received.length).toBeGreaterThanOrEqual(sentIds.size);
    expect(received.length).toBeLessThanOrEqual(rows.length);
    expect(leadsLeft).toBe(0);
    expect(stuck).toBeLessThanOrEqual(killsTotal * 3);
  }, 1_800_000); // 100 worker starts and kills at full size: ~6 s each on a loaded 2-core machine
});
