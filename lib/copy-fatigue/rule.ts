import { createHash } from "node:crypto";

/** Copy fatigue (see docs/copy-fatigue.md): the two windows of sends compared, and the most leads one body may reach. */
export const WINDOW = 200;
export const MAX_BODY_LEADS = 5000;

export type FatigueReason = "RATE_DROP" | "BODY_OVERUSED";
export type FatigueStatus = "OK" | "FATIGUED" | "DISMISSED";

/** A step's sends of its current body: how many, to how many leads, and the replies in each window. */
export interface StepCounts {
  sends: number;
  leads: number;
  /** Sends among the first WINDOW (by send time) that got a reply from a person. */
  firstReplies: number;
  /** Sends among the latest WINDOW that got a reply from a person. */
  recentReplies: number;
}

export interface Verdict {
  reasons: FatigueReason[];
  firstRate: number | null;
  recentRate: number | null;
}

/**
 * The rule: flagged when the reply rate over the latest 200 sends is below half the
 * rate over the first 200 sends, or the same body has gone to more than 5,000 leads. The rates exist
 * from 200 sends on (before that there is no "first 200"); between 200 and 400 sends the two windows
 * overlap, as the rule reads. "Below half" is strict (exactly half is not flagged), compared in whole
 * numbers: both windows are 200 sends, so recent/200 < (first/200)/2 ⇔ 2·recent < first.
 */
export function fatigueVerdict(c: StepCounts): Verdict {
  const reasons: FatigueReason[] = [];
  let firstRate: number | null = null;
  let recentRate: number | null = null;
  if (c.sends >= WINDOW) {
    firstRate = c.firstReplies / WINDOW;
    recentRate = c.recentReplies / WINDOW;
    if (2 * c.recentReplies < c.firstReplies) reasons.push("RATE_DROP");
  }
  if (c.leads > MAX_BODY_LEADS) reasons.push("BODY_OVERUSED");
  return { reasons, firstRate, recentRate };
}

export interface PreviousVerdict {
  bodyHash: string;
  dismissedReasons: string[];
}

/**
 * The status a scan gives a step. A new or changed body starts afresh (no dismissal carried over).
 * A dismissal holds while the step is flagged only for reasons already dismissed; a new reason flags
 * it again, and a step that recovers (no reason) forgets its dismissal, so fatiguing anew flags again.
 */
export function nextStatus(
  prev: PreviousVerdict | undefined,
  bodyHash: string,
  reasons: FatigueReason[],
): { status: FatigueStatus; dismissedReasons: string[] } {
  if (!prev || prev.bodyHash !== bodyHash || reasons.length === 0)
    return { status: reasons.length ? "FATIGUED" : "OK", dismissedReasons: [] };
  const dismissed = reasons.every((r) => prev.dismissedReasons.includes(r));
  return { status: dismissed ? "DISMISSED" : "FATIGUED", dismissedReasons: prev.dismissedReasons };
}

/** What counts as "the same body": the step's subject, text and HTML templates. */
export function bodyHashOf(step: { subject: string | null; bodyTemplate: string; bodyHtmlTemplate: string | null }): string {
  return createHash("sha256")
    .update(JSON.stringify([step.subject ?? "", step.bodyTemplate, step.bodyHtmlTemplate ?? ""]))
    .digest("hex")
    .slice(0, 32);
}

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;

/** The plain-English reason and suggestion shown with a flag (null when the step is fine). */
export function explain(v: Verdict, leads: number): { reason: string | null; suggestion: string | null } {
  const reasons: string[] = [];
  const suggestions: string[] = [];
  if (v.reasons.includes("RATE_DROP")) {
    reasons.push(
      `Reply rate fell from ${pct(v.firstRate ?? 0)} over the first ${WINDOW} sends to ${pct(v.recentRate ?? 0)} over the latest ${WINDOW}`,
    );
    suggestions.push("rewrite the opening line and the ask");
  }
  if (v.reasons.includes("BODY_OVERUSED")) {
    reasons.push(`The same copy has gone to ${leads.toLocaleString("en-US")} leads (more than ${MAX_BODY_LEADS.toLocaleString("en-US")})`);
    suggestions.push("send a fresh version so the same text stops repeating across inboxes");
  }
  if (!reasons.length) return { reason: null, suggestion: null };
  const s = suggestions.join(", and ");
  return { reason: reasons.join("; "), suggestion: `${s[0].toUpperCase()}${s.slice(1)} — Apply suggests a rewrite.` };
}
