import type { Step } from "../types";

/** A branch rule as the API reads and writes it (a step's `branches`). */
export type Rule = Step["branches"][number];
export type When = Rule["when"];
export type Action = Rule["action"];

export const INTENT_OPTIONS = [
  { value: "INTERESTED", label: "Interested" },
  { value: "QUESTION", label: "Question" },
  { value: "NOT_INTERESTED", label: "Not interested" },
  { value: "OUT_OF_OFFICE", label: "Out of office" },
  { value: "WRONG_PERSON", label: "Wrong person" },
  { value: "UNSUBSCRIBE_REQUEST", label: "Unsubscribe" },
  { value: "UNCLASSIFIED", label: "Unclassified" },
] as const;
export type Intent = (typeof INTENT_OPTIONS)[number]["value"];

export const WHEN_OPTIONS = [
  { value: "replied", label: "Replied with…" },
  { value: "noReply", label: "No reply after…" },
  { value: "opened", label: "Opened" },
  { value: "clicked", label: "Clicked" },
  { value: "always", label: "Otherwise (always)" },
] as const;
export type WhenKind = (typeof WHEN_OPTIONS)[number]["value"];

export const ACTION_OPTIONS = [
  { value: "continue", label: "Continue with the next step" },
  { value: "stop", label: "Stop the sequence" },
  { value: "subsequence", label: "Move to a subsequence" },
  { value: "wait", label: "Wait some days, then continue" },
  { value: "waitUntilReturn", label: "Wait until back from out-of-office" },
  { value: "tag", label: "Tag the lead, then continue" },
  { value: "assign", label: "Assign the conversation, then continue" },
] as const;
export type ActionKind = Action["type"];

export function whenKind(w: When): WhenKind {
  if ("replied" in w) return "replied";
  if ("noReplyAfterHours" in w) return "noReply";
  if ("opened" in w) return "opened";
  if ("clicked" in w) return "clicked";
  return "always";
}

/** A condition of another kind, with sensible first values. */
export function whenOf(kind: WhenKind): When {
  if (kind === "replied") return { replied: ["INTERESTED"] };
  if (kind === "noReply") return { noReplyAfterHours: 72 };
  if (kind === "opened") return { opened: true };
  if (kind === "clicked") return { clicked: true };
  return { always: true };
}

/** An action of another kind; the ones that name something start with the first choice offered (or empty). */
export function actionOf(kind: ActionKind, firsts: { subsequenceId?: string; tagId?: string; userId?: string }): Action {
  if (kind === "subsequence") return { type: "subsequence", subsequenceId: firsts.subsequenceId ?? "" };
  if (kind === "wait") return { type: "wait", days: 3 };
  if (kind === "tag") return { type: "tag", tagId: firsts.tagId ?? "" };
  if (kind === "assign") return { type: "assign", userId: firsts.userId ?? "" };
  return { type: kind } as Action;
}

/** The rules with the one at `from` moved to `to` (drag and drop, or the up and down buttons). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || to < 0 || to >= list.length) return [...list];
  const out = [...list];
  const [r] = out.splice(from, 1);
  out.splice(to, 0, r);
  return out;
}
