import { z } from "zod";
import { intentEnum } from "../../db/schema/inbox";

/**
 * Branches: after a step is sent, rules evaluated in order on what the lead did decide where it goes.
 *
 * A rule is decided as soon as its answer can no longer change, and rules are read in order: the first
 * rule whose answer is yes wins, and an undecided rule before it makes the lead wait (so a reply rule
 * written first is not passed over by a catch-all after it). The moment after which silence is final —
 * no reply, no open, no click — is `decideAt`: when the lead's next step would be due (the step's
 * delay), or for the last step its `noReplyAfterHours` or three days. A reply decides at once:
 * `replied` rules match its intent, `noReplyAfterHours` is no.
 *
 * Without branches a step behaves as before (a reply stops the sequence, silence moves on), and when no
 * rule says yes the same default applies. Opens and clicks are people's (machine hits never count).
 */

export const replyIntents = intentEnum.enumValues;
export type ReplyIntent = (typeof replyIntents)[number];

export const branchWhen = z.union([
  z.strictObject({ replied: z.array(z.enum(replyIntents)).min(1).max(replyIntents.length) }),
  z.strictObject({
    noReplyAfterHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 90),
  }),
  z.strictObject({ opened: z.literal(true) }),
  z.strictObject({ clicked: z.literal(true) }),
  z.strictObject({ always: z.literal(true) }),
]);

export const branchAction = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("continue") }),
  z.strictObject({ type: z.literal("stop") }),
  z.strictObject({ type: z.literal("subsequence"), subsequenceId: z.string().min(1).max(100) }),
  z.strictObject({ type: z.literal("wait"), days: z.number().int().min(1).max(365) }),
  z.strictObject({ type: z.literal("waitUntilReturn") }),
  z.strictObject({ type: z.literal("tag"), tagId: z.string().min(1).max(100) }),
  z.strictObject({ type: z.literal("assign"), userId: z.string().min(1).max(100) }),
]);

export const branchRule = z.strictObject({ when: branchWhen, action: branchAction });
export const branchList = z.array(branchRule).max(20);

export type BranchWhen = z.infer<typeof branchWhen>;
export type BranchAction = z.infer<typeof branchAction>;
export type BranchRule = z.infer<typeof branchRule>;

/** What the lead did since the step was sent: its first reply from a person, and its people's opens and clicks. */
export interface BranchFacts {
  now: Date;
  sentAt: Date;
  /** After this moment no reply, open or click can change a decision any more. */
  decideAt: Date;
  reply: { intent: ReplyIntent; at: Date } | null;
  opened: boolean;
  clicked: boolean;
}

export type BranchDecision =
  | { kind: "matched"; index: number; rule: BranchRule }
  /** Some rule cannot be answered yet: decide again at `until` (or when a reply, open or click arrives). */
  | { kind: "pending"; until: Date }
  /** No rule said yes (or there are none): the step's default — a reply stops, silence moves on. */
  | { kind: "default"; stop: boolean };

type Answer = { yes: boolean } | { until: Date };

const HOUR = 3_600_000;

function answer(when: BranchWhen, f: BranchFacts): Answer {
  const final = f.reply !== null || f.now >= f.decideAt;
  if ("always" in when) return { yes: true };
  if ("replied" in when) return f.reply ? { yes: when.replied.includes(f.reply.intent) } : final ? { yes: false } : { until: f.decideAt };
  if ("noReplyAfterHours" in when) {
    if (f.reply) return { yes: false };
    const at = new Date(f.sentAt.getTime() + when.noReplyAfterHours * HOUR);
    return f.now >= at ? { yes: true } : { until: at };
  }
  const did = "opened" in when ? f.opened || f.clicked : f.clicked;
  return did ? { yes: true } : final ? { yes: false } : { until: f.decideAt };
}

/** The branch a lead takes after a step: a pure function of the rules and the lead's facts. */
export function decideBranch(rules: readonly BranchRule[], facts: BranchFacts): BranchDecision {
  for (const [index, rule] of rules.entries()) {
    const a = answer(rule.when, facts);
    if ("until" in a) return { kind: "pending", until: a.until };
    if (a.yes) return { kind: "matched", index, rule };
  }
  if (facts.reply) return { kind: "default", stop: true };
  return facts.now >= facts.decideAt ? { kind: "default", stop: false } : { kind: "pending", until: facts.decideAt };
}

/** The moment silence becomes final for a step: the next step's due time, else the longest no-reply rule, else 3 days. */
export function decideAtFor(sentAt: Date, nextDelayHours: number | null, rules: readonly BranchRule[]): Date {
  const waits = rules.flatMap((r) => ("noReplyAfterHours" in r.when ? [r.when.noReplyAfterHours] : []));
  const hours = nextDelayHours ?? (waits.length ? Math.max(...waits) : 72);
  return new Date(sentAt.getTime() + hours * HOUR);
}

/** A rule in words, for `lead.branched` events and the lead's timeline. */
export function describeRule(when: BranchWhen): string {
  if ("replied" in when) return `replied ${when.replied.join(" or ")}`;
  if ("noReplyAfterHours" in when) return `no reply after ${when.noReplyAfterHours} h`;
  if ("opened" in when) return "opened";
  if ("clicked" in when) return "clicked";
  return "always";
}
