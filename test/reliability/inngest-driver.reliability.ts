import { InngestTestEngine } from "@inngest/test";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../db/client";
import { campaignLeads, emails } from "../../db/schema";
import { inngestFunctions } from "../../inngest/client";
import { sendCampaignEmailsJob } from "../../inngest/functions/send-campaign-emails";
import { LocalRunner } from "../../inngest/runner";
import { ManualClock, systemClock, useClock } from "../../lib/clock";
import { closeAllTransports } from "../../lib/sending/transports";
import { activateCampaign, connectMailboxes, prepareCampaign } from "../campaign-setup";
import { makeWorkspace, type TestWorkspace } from "../helpers";
import { startMailWorld } from "../mail-setup";
import { figure } from "./figures";

/**
 * The send job executed by the Inngest SDK's own engine (@inngest/test) —
 * the cron fan-out lists the mailboxes with due work and sends one event per mailbox, and each event's
 * run sends from that mailbox alone — reaches the same outcome as the local runner on an identical
 * campaign: every lead emailed once, the same per-mailbox split, every row SENT.
 */
const LEADS = 12;
type Fn = (typeof inngestFunctions)[number];
const idOf = (f: Fn) => (f as unknown as { opts: { id: string } }).opts.id;
const fanOut = inngestFunctions.find((f) => idOf(f) === "send-campaign-emails-fan-out") as Fn;
const perMailbox = inngestFunctions.find((f) => idOf(f) === "send-campaign-emails") as Fn;

let world: Awaited<ReturnType<typeof startMailWorld>>;
const clock = new ManualClock(new Date("2026-12-01T10:00:00Z")); // a Tuesday, inside the window
beforeAll(async () => {
  world = await startMailWorld({
    domain: "driver.test",
    users: { "i1@driver.test": "pw", "i2@driver.test": "pw", "l1@driver.test": "pw", "l2@driver.test": "pw" },
  });
  useClock(clock);
}, 60_000);
afterAll(async () => {
  useClock(systemClock);
  closeAllTransports();
  await world.close();
});

async function prepare(ws: TestWorkspace, prefix: string) {
  const pool = await connectMailboxes(
    ws.fullKey,
    [1, 2].map((n) => ({ email: `${prefix}${n}@driver.test`, appPassword: "pw" })),
  );
  const { campaign } = await prepareCampaign(ws.fullKey, {
    campaign: { name: `Driver ${prefix}`, minGapMinutes: 1, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
    steps: [{ stepOrder: 0, subject: "Hi {{firstName}}", bodyTemplate: "Hello" }],
    mailboxIds: pool.map((m) => m.id),
    leads: Array.from({ length: LEADS }, (_, i) => ({ email: `${prefix}-lead${i}@sink.test`, firstName: `L${i}`, timezone: "UTC" })),
  });
  return campaign.id as string;
}

const active = (campaignId: string) =>
  getDb().$count(campaignLeads, and(eq(campaignLeads.campaignId, campaignId), eq(campaignLeads.status, "ACTIVE")));

async function outcome(campaignId: string) {
  const rows = await getDb().select().from(emails).where(eq(emails.campaignId, campaignId));
  const split = new Map<string, number>();
  for (const r of rows) split.set(r.mailboxId, (split.get(r.mailboxId) ?? 0) + 1);
  return {
    rows: rows.length,
    sent: rows.filter((r) => r.status === "SENT").length,
    leads: new Set(rows.map((r) => r.leadEmail)).size,
    split: [...split.values()].sort(),
  };
}

describe("the Inngest driver and the local runner", () => {
  it("send the same campaign the same way", async () => {
    const [a, b] = [await makeWorkspace("driver-inngest"), await makeWorkspace("driver-local")];
    const viaInngest = await prepare(a, "i");
    const viaRunner = await prepare(b, "l");

    // Inngest: the cron's fan-out, then one run per event, minute after minute (B is still a draft).
    await activateCampaign(a.fullKey, viaInngest);
    let fanOuts = 0;
    let runs = 0;
    const keysSeen = new Set<string>();
    for (let minute = 0; minute < 60 && (await active(viaInngest)) > 0; minute++) {
      // Sending the events is Inngest's part: that step is mocked (its input is what the run would send).
      const sent = { id: "fan-out-0", handler: () => ({ ids: [] }) };
      const { result, ctx } = await new InngestTestEngine({ function: fanOut, steps: [sent] }).execute();
      fanOuts++;
      expect(result).toMatchObject({ keys: expect.any(Number) });
      const events = ctx.step.sendEvent.mock.calls.flatMap((c) => c[1] as { name: string; data: { key: string } }[]);
      for (const event of events) {
        keysSeen.add(event.data.key);
        await new InngestTestEngine({ function: perMailbox, events: [event] }).execute();
        runs++;
      }
      clock.advance(60_000);
    }
    // The local runner on the same kind of campaign.
    await activateCampaign(b.fullKey, viaRunner);
    const runner = new LocalRunner(getDb(), clock, [sendCampaignEmailsJob]);
    let ticks = 0;
    for (let minute = 0; minute < 60 && (await active(viaRunner)) > 0; minute++) {
      await runner.tick();
      ticks++;
      clock.advance(60_000);
    }

    const [x, y] = [await outcome(viaInngest), await outcome(viaRunner)];
    const doubles = world.smtp.received.length - new Set(world.smtp.received.map((r) => r.to[0])).size;
    figure({
      suite: "inngest",
      name: `Inngest (@inngest/test): ${fanOuts} fan-outs, ${runs} runs; sent`,
      value: x.sent,
      goal: `${LEADS}`,
      pass: x.sent === LEADS,
    });
    figure({ suite: "inngest", name: `local runner: ${ticks} ticks; sent`, value: y.sent, goal: `${LEADS}`, pass: y.sent === LEADS });
    figure({
      suite: "inngest",
      name: "per-mailbox split, Inngest vs local",
      value: `${x.split.join("+")} vs ${y.split.join("+")}`,
      goal: "equal",
      pass: x.split.join() === y.split.join(),
    });
    expect(keysSeen.size).toBe(2);
    expect(x).toEqual({ rows: LEADS, sent: LEADS, leads: LEADS, split: [LEADS / 2, LEADS / 2] });
    expect(y).toEqual(x);
    expect(doubles).toBe(0);
    expect(world.smtp.received.length).toBe(2 * LEADS);
  });
});
