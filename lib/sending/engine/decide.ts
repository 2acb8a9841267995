import { type BranchRule, decideAtFor } from "../branches";
import { countryOf } from "../holidays";
import { campaignDay, utcDay, type WindowState, windowAt, zoneFor } from "../window";
import type { Campaign, CampaignLeadStatus, DueLead, Mailbox, Step } from "./types";

/**
 * The scheduler's rules as one pure function: from the rows a pass read (claimed mailboxes, their
 * first due leads, campaigns, steps, today's counts, suppressions) to what each mailbox does now —
 * send this lead's step (one of these variants), or why not — and what happens to each lead looked
 * at. No database, no clock: `now` is given. Every rule is checked at claim time (architecture:
 * "Sending, exactly once at most"); the claim's SQL already filters most of them, and this checks
 * them all again so the whole rule set reads, and is tested, in one place.
 */

/** Refusals at send time (not bounces) before a lead stops; the same step is retried until then. */
export const MAX_FAILED_ATTEMPTS = 5;
/** The first retry's wait; each later one doubles it (15 min, 30 min, 1 h …). */
const RETRY_BASE_MS = 15 * 60_000;

export interface PassFacts {
  now: Date;
  /** The claimed mailboxes, in claim order. */
  mailboxes: Mailbox[];
  /** Campaign emails each mailbox counted today (UTC day): what dailySendCap limits. */
  sentToday: ReadonlyMap<string, number>;
  /** Each mailbox's first due leads, in queue order (oldest due first, then the order added). */
  due: ReadonlyMap<string, DueLead[]>;
  campaigns: ReadonlyMap<string, Campaign>;
  /** Steps of each campaign (every order and variant). */
  steps: ReadonlyMap<string, Step[]>;
  /** Whether the address is suppressed in the workspace (by address or domain; unsubscribes too). */
  isSuppressed(workspaceId: string, email: string): boolean;
  /** First emails each campaign with a dailyNewLeadCap sent in its own day so far. */
  firstToday: ReadonlyMap<string, number>;
}

export type MailboxReason = "sending-disabled" | "login-failing" | "auto-paused" | "pacing" | "daily-cap" | "nothing-sendable";

/** What a mailbox does this pass: send one lead's step, or give its lease back (until: its next send time). */
export type MailboxDecision =
  | { kind: "send"; mailbox: Mailbox; lead: DueLead; campaign: Campaign; variants: Step[]; reason: "due" }
  | { kind: "release"; mailbox: Mailbox; reason: MailboxReason; until: Date | null };

export type LeadDecision =
  /** Sent from its mailbox now, one of these variants of its next step. */
  | { kind: "send"; lead: DueLead; reason: "due"; variants: Step[] }
  /** Left as it is (the claim's SQL does not return such a lead; nothing to write). */
  | { kind: "wait"; lead: DueLead; reason: "lead-not-active" | "campaign-not-active" | "not-started" | "not-due-yet" }
  /** Stopped for good: the address is suppressed (unsubscribed, bounced, blocked). */
  | { kind: "stop"; lead: DueLead; reason: "suppressed" }
  /** No step at this order and none after it: finished. */
  | { kind: "complete"; lead: DueLead; reason: "no-more-steps" }
  /** No step at this order but a later one (steps renumbered since): on to that one. */
  | { kind: "skip"; lead: DueLead; reason: "step-removed"; toOrder: number }
  /** Not now: due again at `until` (null: the window never opens). */
  | { kind: "defer"; lead: DueLead; reason: Exclude<WindowState, "open"> | "new-lead-cap"; until: Date | null };

export interface PassPlan {
  mailboxes: MailboxDecision[];
  /** Every lead looked at, in order (a mailbox stops looking at its first sendable lead). */
  leads: LeadDecision[];
}

/** Why a claimed mailbox may not send now, if it may not (the claim checks the same). */
function mailboxBlocked(m: Mailbox, now: Date): MailboxReason | null {
  if (!m.sendingEnabled) return "sending-disabled";
  if (m.loginFailingSince) return "login-failing";
  if (m.autoPausedAt) return "auto-paused";
  if (m.nextSendAt && m.nextSendAt > now) return "pacing";
  return null;
}

const ACTIVE: CampaignLeadStatus = "ACTIVE";

/** The pass's rules over every claimed mailbox. */
export function decide(facts: PassFacts): PassPlan {
  const plan: PassPlan = { mailboxes: [], leads: [] };
  const firstToday = new Map(facts.firstToday);
  const endOfDay = utcDay(facts.now).end;
  for (const m of facts.mailboxes) {
    const blocked = mailboxBlocked(m, facts.now);
    if (blocked) {
      plan.mailboxes.push({ kind: "release", mailbox: m, reason: blocked, until: null });
      continue;
    }
    // A mailbox at its cap waits for the next UTC day (dailySendCap counts every campaign email).
    if ((facts.sentToday.get(m.id) ?? 0) >= m.dailySendCap) {
      plan.mailboxes.push({ kind: "release", mailbox: m, reason: "daily-cap", until: endOfDay });
      continue;
    }
    let picked: MailboxDecision | null = null;
    for (const lead of facts.due.get(m.id) ?? []) {
      const c = facts.campaigns.get(lead.campaignId);
      if (!c) continue; // deleted since the read
      const d = decideLead(facts, m, c, lead, { firstToday });
      plan.leads.push(d);
      if (d.kind === "send") {
        picked = { kind: "send", mailbox: m, lead, campaign: c, variants: d.variants, reason: "due" };
        break;
      }
    }
    plan.mailboxes.push(picked ?? { kind: "release", mailbox: m, reason: "nothing-sendable", until: null });
  }
  return plan;
}

interface PassState {
  firstToday: Map<string, number>;
}

/** One lead's rules, in order; a first email counts against the campaign's dailyNewLeadCap when sent. */
function decideLead(facts: PassFacts, m: Mailbox, c: Campaign, lead: DueLead, pass: PassState): LeadDecision {
  const now = facts.now;
  if (lead.status !== ACTIVE) return { kind: "wait", lead, reason: "lead-not-active" }; // replied, bounced, stopped…
  if (c.status !== "ACTIVE") return { kind: "wait", lead, reason: "campaign-not-active" };
  if (c.startAt && c.startAt > now) return { kind: "wait", lead, reason: "not-started" };
  if (lead.nextSendAt && new Date(lead.nextSendAt) > now) return { kind: "wait", lead, reason: "not-due-yet" };
  if (facts.isSuppressed(m.workspaceId, lead.email)) return { kind: "stop", lead, reason: "suppressed" };
  // The steps of the sequence the lead is in (the main one, or the subsequence it entered).
  const steps = (facts.steps.get(c.id) ?? []).filter((s) => s.subsequenceId === lead.subsequenceId);
  const variants = steps.filter((s) => s.stepOrder === lead.nextStepOrder);
  if (variants.length === 0) {
    const later = steps.filter((s) => s.stepOrder > lead.nextStepOrder).map((s) => s.stepOrder);
    if (later.length === 0) return { kind: "complete", lead, reason: "no-more-steps" };
    return { kind: "skip", lead, reason: "step-removed", toOrder: Math.min(...later) };
  }
  // Worked out once per (settings, zone) at this moment and shared by the pass's rounds (window.ts).
  // With skipHolidays, the lead's country's public holidays are shut days too (blackout dates always are).
  const zone = zoneFor(c, lead.timezone);
  const w = windowAt(c, zone, now, c.skipHolidays ? countryOf(lead, zone) : null);
  // Not now: come back when this lead's window opens, instead of re-reading it every pass.
  if (w.state !== "open") return { kind: "defer", lead, reason: w.state, until: w.opens };
  if (lead.nextStepOrder === 0 && c.dailyNewLeadCap !== null) {
    const sent = pass.firstToday.get(c.id) ?? 0;
    // The campaign's new leads are done for its day: this one waits for the next (follow-ups behind
    // it in the queue go on). Raising the cap undoes the wait (deferrals.ts).
    if (sent >= c.dailyNewLeadCap) return { kind: "defer", lead, reason: "new-lead-cap", until: campaignDay(c.defaultTimezone, now).end };
    pass.firstToday.set(c.id, sent + 1);
  }
  return { kind: "send", lead, reason: "due", variants };
}

/** The longest `delayHoursAfterPrevious` of a step's variants (null counts as 0). */
export const delayOf = (variants: readonly Step[]) => Math.max(0, ...variants.map((s) => s.delayHoursAfterPrevious ?? 0));

export interface AfterSend {
  status: CampaignLeadStatus;
  nextSendAt: Date | null;
  /** The sent step, when its branch rules decide what comes next (the branch job reads it at nextSendAt). */
  branchStepId: string | null;
}

/**
 * Where a lead goes once step `sent` is sent, in its own sequence: on to the next step, due its
 * `delayHoursAfterPrevious` later (fractions allowed; the longest of its variants), or finished.
 * A step with branch rules leaves the choice to them: the lead waits for its decision, looked at
 * when silence becomes final (decideAtFor) or at once when a reply arrives.
 */
export function afterSend(steps: readonly Step[], sent: Step, now: Date): AfterSend {
  const next = steps.filter((s) => s.subsequenceId === sent.subsequenceId && s.stepOrder === sent.stepOrder + 1);
  const delayH = next.length ? delayOf(next) : null;
  if (sent.branches.length > 0) {
    const decideAt = decideAtFor(now, delayH, sent.branches as BranchRule[]);
    return { status: "ACTIVE", nextSendAt: decideAt, branchStepId: sent.id };
  }
  if (delayH === null) return { status: "COMPLETED", nextSendAt: null, branchStepId: null };
  return { status: "ACTIVE", nextSendAt: new Date(now.getTime() + delayH * 3600_000), branchStepId: null };
}

/**
 * Where a lead goes after a refusal at send time (not a bounce): the same step again after 15 min,
 * 30 min, 1 h …; after MAX_FAILED_ATTEMPTS refusals the lead stops.
 */
export function afterFailure(failedAttempts: number, done: Date): { status: CampaignLeadStatus; failedAttempts: number; nextSendAt: Date } {
  const failures = failedAttempts + 1;
  return {
    status: failures >= MAX_FAILED_ATTEMPTS ? "STOPPED" : "ACTIVE",
    failedAttempts: failures,
    nextSendAt: new Date(done.getTime() + RETRY_BASE_MS * 2 ** (failures - 1)),
  };
}

/**
 * Under the campaigns' row locks, several workers' picks are cut to what each campaign's
 * dailyNewLeadCap still allows (`room`: first emails left today). Follow-ups and uncapped campaigns pass.
 */
export function withinNewLeadCaps<W extends { campaign: Campaign; step: Step }>(work: W[], room: Map<string, number>): W[] {
  const left = new Map(room);
  return work.filter((w) => {
    if (w.step.stepOrder !== 0 || w.campaign.dailyNewLeadCap === null) return true;
    const n = left.get(w.campaign.id) ?? 0;
    left.set(w.campaign.id, n - 1);
    return n > 0;
  });
}
