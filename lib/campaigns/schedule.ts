import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { anyOf, selectRows } from "../../db/bulk";
import { campaignLeads, campaignSteps, leads } from "../../db/schema";
import { requireAccess, type Ctx } from "../ctx";
import { countryOf } from "../sending/holidays";
import { campaignDay, inWindow, nextWindowOpen, utcDay, zoneFor } from "../sending/window";
import { findCampaign } from "./campaigns";
import { canSend, poolMailboxes } from "./eligibility";
import { skippedDays } from "./skipped-days";

export const scheduleQuery = z.object({
  days: z.coerce.number().int().min(1).max(30, "days can be at most 30").default(7),
  leads: z.coerce.number().int().min(0).max(500).default(50).describe("How many upcoming sends to list"),
});

const TICK_MS = 5 * 60_000;

/**
 * GET /campaigns/<id>/schedule: a forecast, by the send engine's own rules (windows and days in each
 * lead's zone, startAt, dailyNewLeadCap, mailbox caps, pacing gap, follow-up delays), of how many first
 * emails and follow-ups each pool mailbox sends per day, and when the next leads get their next step.
 * It assumes the average gap (1.25 × minGapMinutes) and no replies or bounces, and counts only this
 * campaign's use of each mailbox. Blackout dates and (with skipHolidays) each lead's country's public
 * holidays are shut days in the forecast as in the engine, and `skippedDays` lists them per country.
 */
export async function forecastSchedule(ctx: Ctx, campaignId: string, q: z.infer<typeof scheduleQuery>) {
  requireAccess(ctx, "read");
  const c = await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  const now = ctx.clock.now();
  const { sendable, steps, state, sentToday, leadRows } = await forecastInputs(ctx, c, now);
  const ids = sendable.map((m) => m.id);
  const orders = [...new Set(steps.map((s) => s.stepOrder))].sort((a, b) => a - b);
  const { perDay, upcoming } = simulate({ c, now, days: q.days, maxUpcoming: q.leads, sendable, steps, orders, state, sentToday });
  const dates = Array.from({ length: q.days }, (_, i) => new Date(now.getTime() + i * 86_400_000).toISOString().slice(0, 10));
  const mailboxesOut = sendable.map((m) => ({
    mailboxId: m.id,
    email: m.email,
    dailySendCap: m.dailySendCap,
    perDay: dates.map((date) => ({ date, ...(perDay.get(m.id)?.get(date) ?? { firstEmails: 0, followUps: 0 }) })),
  }));
  const totals = dates.map((date) =>
    mailboxesOut.reduce(
      (acc, m) => {
        const d = m.perDay.find((x) => x.date === date)!;
        return { date, firstEmails: acc.firstEmails + d.firstEmails, followUps: acc.followUps + d.followUps };
      },
      { date, firstEmails: 0, followUps: 0 },
    ),
  );
  const unassigned = state.filter((l) => !l.mailboxId || !ids.includes(l.mailboxId)).length;
  const notes = forecastNotes(c, now, unassigned, orders.length);
  const skipped = skippedDays(c, leadRows, dates[0], dates[dates.length - 1]);
  return {
    campaignId: c.id,
    from: now.toISOString(),
    days: q.days,
    totals,
    mailboxes: mailboxesOut,
    upcoming,
    skippedDays: skipped,
    notes,
  };
}

type Campaign = Awaited<ReturnType<typeof findCampaign>>;
type PoolMailbox = Awaited<ReturnType<typeof poolMailboxes>>[number];
type Step = typeof campaignSteps.$inferSelect;
/** A lead in the forecast: its next step and when it is due (ms), moved on as the forecast sends. */
type ForecastLead = {
  leadId: string;
  email: string;
  zone: string | null;
  /** The lead's country when the campaign skips holidays (else null: only blackout dates apply). */
  country: string | null;
  mailboxId: string | null;
  step: number;
  due: number;
};
type DayCounts = { firstEmails: number; followUps: number };

/** The pool's sendable mailboxes, the steps, the campaign's active leads and what each mailbox sent today. */
async function forecastInputs(ctx: Ctx, c: Campaign, now: Date) {
  const [pool, steps, rows] = await Promise.all([
    poolMailboxes(ctx.db, c.id),
    // The main sequence's steps: where a lead goes after a branch is not known in advance.
    ctx.db
      .select()
      .from(campaignSteps)
      .where(and(eq(campaignSteps.campaignId, c.id), isNull(campaignSteps.subsequenceId))),
    ctx.db
      .select({ cl: campaignLeads, email: leads.email, timezone: leads.timezone, customFields: leads.customFields })
      .from(campaignLeads)
      .innerJoin(leads, eq(leads.id, campaignLeads.leadId))
      .where(and(eq(campaignLeads.campaignId, c.id), eq(campaignLeads.status, "ACTIVE"))),
  ]);
  const sendable = pool.filter(canSend);
  const sentToday = new Map<string, number>();
  if (sendable.length) {
    const day = utcDay(now);
    const counts = await selectRows<{ mailbox_id: string; n: number }>(
      ctx.db,
      sql`
        select mailbox_id, count(*)::int as n from emails
        where mailbox_id = ${anyOf(sendable.map((m) => m.id))} and campaign_id is not null
          and status in ('SENDING', 'SENT', 'BOUNCED') and created_at >= ${day.start.toISOString()}::timestamptz
        group by mailbox_id`,
    );
    for (const x of counts) sentToday.set(x.mailbox_id, x.n);
  }
  const state: ForecastLead[] = rows.map((r) => ({
    leadId: r.cl.leadId,
    email: r.email,
    zone: zoneFor(c, r.timezone),
    country: c.skipHolidays ? countryOf({ timezone: r.timezone, customFields: r.customFields }, zoneFor(c, r.timezone)) : null,
    mailboxId: r.cl.mailboxId,
    step: r.cl.nextStepOrder,
    due: r.cl.nextSendAt?.getTime() ?? 0,
  }));
  return { sendable, steps, state, sentToday, leadRows: rows };
}

interface Simulation {
  c: Campaign;
  now: Date;
  days: number;
  maxUpcoming: number;
  sendable: PoolMailbox[];
  steps: Step[];
  orders: number[];
  state: ForecastLead[];
  sentToday: Map<string, number>;
}

/**
 * The engine's rules run forward in 5-minute ticks: each tick, every mailbox whose gap has passed and
 * whose daily cap is not reached sends the first of its leads that is due, has a step, is in its window
 * and fits the campaign's daily new-lead cap. Moves the leads in `state` on as they are sent.
 */
function simulate(s: Simulation) {
  const { c, now, sendable, orders } = s;
  const ids = sendable.map((m) => m.id);
  const delayOf = (order: number) =>
    Math.max(0, ...s.steps.filter((x) => x.stepOrder === order).map((x) => x.delayHoursAfterPrevious ?? 0));
  const gapMs = c.minGapMinutes * 60_000 * 1.25;
  const byMailbox = new Map<string, ForecastLead[]>();
  for (const l of s.state)
    if (l.mailboxId && ids.includes(l.mailboxId)) (byMailbox.get(l.mailboxId) ?? byMailbox.set(l.mailboxId, []).get(l.mailboxId)!).push(l);
  const nextAt = new Map(sendable.map((m) => [m.id, Math.max(now.getTime(), m.nextSendAt?.getTime() ?? 0)]));
  const dayCount = new Map<string, number>(); // mailbox|utcDay → sends
  const firstsPerCampaignDay = new Map<string, number>();
  const perDay = new Map<string, Map<string, DayCounts>>(); // mailbox → date → counts
  const upcoming: { leadId: string; email: string; stepOrder: number; at: string; mailboxEmail: string }[] = [];
  const end = now.getTime() + s.days * 86_400_000;
  const start = Math.max(now.getTime(), c.startAt?.getTime() ?? 0);
  const today = now.toISOString().slice(0, 10);

  for (let t = start; t < end && c.status !== "ARCHIVED"; t += TICK_MS) {
    const at = new Date(t);
    const dayKey = at.toISOString().slice(0, 10);
    const campaignDayKey = campaignDay(c.defaultTimezone, at).start.toISOString();
    for (const m of sendable) {
      if ((nextAt.get(m.id) ?? 0) > t) continue;
      const used = (dayCount.get(`${m.id}|${dayKey}`) ?? 0) + (dayKey === today ? (s.sentToday.get(m.id) ?? 0) : 0);
      if (used >= m.dailySendCap) continue;
      const firstsFull = c.dailyNewLeadCap !== null && (firstsPerCampaignDay.get(campaignDayKey) ?? 0) >= c.dailyNewLeadCap;
      const pick = (byMailbox.get(m.id) ?? []).find(
        (l) => l.due <= t && orders.includes(l.step) && inWindow(c, l.zone, at, l.country) && !(l.step === 0 && firstsFull),
      );
      if (!pick) continue;
      const counts = (perDay.get(m.id) ?? perDay.set(m.id, new Map()).get(m.id)!).get(dayKey) ?? { firstEmails: 0, followUps: 0 };
      if (pick.step === 0) {
        counts.firstEmails++;
        firstsPerCampaignDay.set(campaignDayKey, (firstsPerCampaignDay.get(campaignDayKey) ?? 0) + 1);
      } else counts.followUps++;
      perDay.get(m.id)!.set(dayKey, counts);
      dayCount.set(`${m.id}|${dayKey}`, (dayCount.get(`${m.id}|${dayKey}`) ?? 0) + 1);
      if (upcoming.length < s.maxUpcoming)
        upcoming.push({ leadId: pick.leadId, email: pick.email, stepOrder: pick.step, at: at.toISOString(), mailboxEmail: m.email });
      const next = orders.find((o) => o > pick.step);
      pick.step = next ?? Number.MAX_SAFE_INTEGER;
      pick.due = next === undefined ? Number.MAX_SAFE_INTEGER : t + delayOf(next) * 3600_000;
      nextAt.set(m.id, t + Math.max(gapMs, TICK_MS));
    }
  }
  return { perDay, upcoming };
}

/** What the forecast cannot show, said in words. */
function forecastNotes(c: Campaign, now: Date, unassigned: number, stepCount: number): string[] {
  const notes: string[] = [];
  if (c.status !== "ACTIVE") notes.push(`The campaign is ${c.status}: this is what it would send once active.`);
  if (unassigned) notes.push(`${unassigned} lead(s) have no mailbox that can send and are not in the forecast; reassign them.`);
  if (c.startAt && c.startAt.getTime() > now.getTime()) notes.push(`Nothing is sent before ${c.startAt.toISOString()}.`);
  if (!stepCount) notes.push("The campaign has no steps.");
  if (nextWindowOpen(c, c.defaultTimezone, now) === null) notes.push("No sending day is selected.");
  return notes;
}
