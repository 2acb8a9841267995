/** One entry of the launch check (a blocker or a warning). */
export interface LaunchEntryLike {
  code: string;
  message: string;
}

/**
 * Blockers a launch may still go past with an explicit confirmation: leads that would receive a raw
 * `{{token}}` (the sender may mean it, e.g. a token filled later). The others (no steps, no leads, no
 * mailbox that can send) mean nothing could be sent, so Launch is not offered while they stand.
 */
export const CONFIRMABLE_BLOCKERS: ReadonlySet<string> = new Set(["TEMPLATE_TOKENS"]);

/** The blockers that keep Launch disabled. */
export function hardBlockers<T extends LaunchEntryLike>(blockers: readonly T[]): T[] {
  return blockers.filter((b) => !CONFIRMABLE_BLOCKERS.has(b.code));
}

/** Where a launch warning is fixed: a page of the dashboard, named for the link. */
export interface FixLink {
  href: string;
  label: string;
}

/**
 * The page that fixes a deliverability warning: the Domains page for SPF, DKIM and DMARC, the Mailboxes
 * page for warmup, the campaign's sequence editor at the step a warning names, Settings → Tracking domains for the
 * tracking host. Other entries have no link (their message says what to do).
 */
export function fixLinkOf(entry: LaunchEntryLike & { stepId?: string }, campaignId: string): FixLink | null {
  const sequence = `/campaigns/${encodeURIComponent(campaignId)}?tab=sequence`;
  switch (entry.code) {
    case "DOMAIN_NOT_AUTHENTICATED":
      return { href: "/domains", label: "Open Domains" };
    case "MAILBOX_NOT_WARMED":
    case "WARMING_MAILBOXES":
      return { href: "/mailboxes", label: "Open warmup on Mailboxes" };
    case "EMPTY_VARIABLES":
    case "SPAM_WORDS":
    case "TRACKED_SHORT_HTML":
      // A warning about one step opens the sequence at that step's editor.
      return {
        href: entry.stepId ? `${sequence}#step-${encodeURIComponent(entry.stepId)}` : sequence,
        label: "Edit the step in the sequence",
      };
    case "TRACKING_SHARED_DOMAIN":
      return { href: "/settings/tracking-domains", label: "Settings → Tracking domains" };
    default:
      return null;
  }
}

/** A message split at its "Fix:" into the problem and the fix (the fix is empty when the message has none). */
export function splitFix(message: string): { problem: string; fix: string } {
  const at = message.indexOf(" Fix: ");
  return at < 0 ? { problem: message, fix: "" } : { problem: message.slice(0, at), fix: message.slice(at + " Fix: ".length) };
}
