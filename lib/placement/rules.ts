import { jobsEnv } from "../env";
/**
 * The pure rules of placement tests: the wait, which Gmail tab a label means, a test's counts, and when
 * a result is a drop worth an alert (PLACEMENT_DROP). Kept apart from IO so a table of cases tests them.
 */

/** How long seeds are read before what is not found is MISSING (PLACEMENT_WAIT_S, default 600). */
export function placementWaitMs(): number {
  return jobsEnv.placementWaitS * 1000;
}

export type Tab = "PRIMARY" | "PROMOTIONS" | "SOCIAL" | "UPDATES" | "FORUMS";

/**
 * Gmail's category labels as X-GM-LABELS shows them: the API's names (CATEGORY_PROMOTIONS …) or the
 * internal smart labels (^smartlabel_promo …). Compared case-insensitively, a leading backslash ignored.
 */
const TAB_LABELS: Record<string, Tab> = {
  category_personal: "PRIMARY",
  category_promotions: "PROMOTIONS",
  category_social: "SOCIAL",
  category_updates: "UPDATES",
  category_forums: "FORUMS",
  "^smartlabel_personal": "PRIMARY",
  "^smartlabel_promo": "PROMOTIONS",
  "^smartlabel_social": "SOCIAL",
  "^smartlabel_notification": "UPDATES",
  "^smartlabel_group": "FORUMS",
};

/**
 * The inbox tab of a message a Gmail-style server (X-GM-EXT-1) filed in INBOX: its category label, or
 * PRIMARY when it has none (Gmail shows uncategorised mail in Primary).
 */
export function tabOf(labels: Iterable<string>): Tab {
  for (const l of labels) {
    const tab = TAB_LABELS[l.replace(/^\\/, "").toLowerCase()];
    if (tab) return tab;
  }
  return "PRIMARY";
}

export type Placement = "PENDING" | "INBOX" | "SPAM" | "MISSING";

export interface Tally {
  inboxCount: number;
  spamCount: number;
  missingCount: number;
  /** Counts per inbox tab, over the seeds whose server told the tab (`gmailTabs`). */
  gmailTabs: Record<string, number>;
}

/** A test's counts from its results (PENDING ones count nowhere yet). */
export function tally(results: readonly { placement: Placement; tab: string | null }[]): Tally {
  const t: Tally = { inboxCount: 0, spamCount: 0, missingCount: 0, gmailTabs: {} };
  for (const r of results) {
    if (r.placement === "INBOX") t.inboxCount++;
    else if (r.placement === "SPAM") t.spamCount++;
    else if (r.placement === "MISSING") t.missingCount++;
    if (r.placement === "INBOX" && r.tab) t.gmailTabs[r.tab] = (t.gmailTabs[r.tab] ?? 0) + 1;
  }
  return t;
}

/** Below this share of seeds in the inbox a test is a drop whatever came before. */
export const DROP_BELOW_PCT = 50;
/** A fall of this many points of inbox share from the mailbox's previous completed test is a drop. */
export const DROP_BY_POINTS = 20;

/** Inbox share in whole percent of the seeds (0 for a test without seeds). */
export function inboxPct(t: { inboxCount: number; seedCount: number }): number {
  return t.seedCount > 0 ? Math.round((t.inboxCount * 100) / t.seedCount) : 0;
}

/**
 * PLACEMENT_DROP: a completed test whose inbox share is below 50 %, or 20 points or more below the
 * mailbox's previous completed test, raises it; a later test that is neither resolves it ("clean").
 */
export function isDrop(pct: number, previousPct: number | null): boolean {
  return pct < DROP_BELOW_PCT || (previousPct !== null && previousPct - pct >= DROP_BY_POINTS);
}
