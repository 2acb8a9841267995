import type { BranchAction, BranchDecision, ReplyIntent } from "./branches";
import { delayOf } from "./engine/decide";
import type { CampaignLeadStatus, Step } from "./engine/types";
import { type OooCampaign, type OooLead, resumeAt } from "./resume";

/**
 * What a branch decision does to the lead, as a pure function: where it goes next (the next step of its
 * sequence, a subsequence's first step, a pause, or the end) and what the decision is recorded as.
 */

export interface BranchLead {
  /** The step whose rules were decided, as sent (its order and sequence). */
  step: Step;
  /** When it was sent. */
  sentAt: Date;
  /** The campaign's steps, every sequence. */
  steps: readonly Step[];
  /** The lead's first reply since the step, if any. */
  reply: { intent: ReplyIntent; at: Date; returnDate: string | null } | null;
  lead: OooLead;
}

export interface BranchCampaign extends OooCampaign {
  stopOnReply: boolean;
}

export interface BranchEffect {
  status: CampaignLeadStatus;
  subsequenceId: string | null;
  nextStepOrder: number;
  nextSendAt: Date | null;
  pausedUntil: Date | null;
  pauseReason: "wait" | "out_of_office" | null;
  /** What is recorded (lead_branches, the timeline, lead.branched): the rule in words and the action. */
  ruleIndex: number | null;
  action: BranchAction;
  /** A tag to put on the lead, or a member to give the thread to (tag and assign actions). */
  tagId?: string;
  userId?: string;
}

const HOUR = 3_600_000;

type Place = Pick<BranchEffect, "status" | "subsequenceId" | "nextStepOrder" | "nextSendAt">;

/** On to the next step of the same sequence, due its delay after the sent step (at once if that is past); else finished. */
function continued(l: BranchLead, now: Date): Place {
  const seq = l.step.subsequenceId;
  const next = l.steps.filter((s) => s.subsequenceId === seq && s.stepOrder === l.step.stepOrder + 1);
  const place = { subsequenceId: seq, nextStepOrder: l.step.stepOrder + 1 };
  if (next.length === 0) return { ...place, status: "COMPLETED", nextSendAt: null };
  const due = l.sentAt.getTime() + delayOf(next) * HOUR;
  return { ...place, status: "ACTIVE", nextSendAt: new Date(Math.max(due, now.getTime())) };
}

/** Into a subsequence at its first step, due that step's delay from now; a subsequence without steps finishes the lead. */
function entered(l: BranchLead, subsequenceId: string, now: Date): Place {
  const own = l.steps.filter((s) => s.subsequenceId === subsequenceId);
  if (own.length === 0) return { status: "COMPLETED", subsequenceId, nextStepOrder: 0, nextSendAt: null };
  const first = Math.min(...own.map((s) => s.stepOrder));
  const delay = delayOf(own.filter((s) => s.stepOrder === first));
  return { status: "ACTIVE", subsequenceId, nextStepOrder: first, nextSendAt: new Date(now.getTime() + delay * HOUR) };
}

/** The continued place, not before `until`. */
function pausedTo(place: Place, until: Date | null, reason: "wait" | "out_of_office") {
  if (!until || place.status !== "ACTIVE") return { ...place, pausedUntil: null, pauseReason: null };
  const at = place.nextSendAt && place.nextSendAt > until ? place.nextSendAt : until;
  return { ...place, nextSendAt: at, pausedUntil: until, pauseReason: reason };
}

/** The effect of a decided branch (never called for a pending one). */
export function branchEffect(d: Exclude<BranchDecision, { kind: "pending" }>, l: BranchLead, c: BranchCampaign, now: Date): BranchEffect {
  const none = { pausedUntil: null, pauseReason: null } as const;
  if (d.kind === "default") {
    // No rule said yes: a reply stops the sequence as the campaign says (stopOnReply), silence moves on.
    if (d.stop && c.stopOnReply)
      return { ...continued(l, now), status: "REPLIED", nextSendAt: null, ...none, ruleIndex: null, action: { type: "stop" } };
    return { ...continued(l, now), ...none, ruleIndex: null, action: { type: "continue" } };
  }
  const action = d.rule.action;
  const base = { ruleIndex: d.index, action };
  switch (action.type) {
    case "stop":
      return { ...continued(l, now), status: l.reply ? "REPLIED" : "STOPPED", nextSendAt: null, ...none, ...base };
    case "subsequence":
      return { ...entered(l, action.subsequenceId, now), ...none, ...base };
    case "wait":
      return { ...pausedTo(continued(l, now), new Date(now.getTime() + action.days * 24 * HOUR), "wait"), ...base };
    case "waitUntilReturn": {
      const until = resumeAt(c, l.lead, l.reply?.returnDate ?? null, l.reply?.at ?? now);
      return { ...pausedTo(continued(l, now), until, "out_of_office"), ...base };
    }
    case "tag":
      return { ...continued(l, now), ...none, ...base, tagId: action.tagId };
    case "assign":
      return { ...continued(l, now), ...none, ...base, userId: action.userId };
    default:
      return { ...continued(l, now), ...none, ...base };
  }
}
