/**
 * The setup checklist a new workspace sees: what is done is read from the workspace itself (its
 * mailboxes, domains, leads and campaigns), never from remembered clicks, so an item ticks however the
 * work was done — in the dashboard, through the API or the CLI — and unticks when it is undone.
 */

export const ITEM_IDS = ["mailbox", "dns", "warmup", "leads", "campaign", "launch"] as const;
export type OnboardingItemId = (typeof ITEM_IDS)[number];

export interface OnboardingItem {
  id: OnboardingItemId;
  label: string;
  done: boolean;
  /** The dashboard page where the item is done. */
  href: string;
  /** Progress or what is missing, when there is something to say ("1 of 2 domains"). */
  detail: string | null;
}

/** What the checklist reads from the workspace (./workspace-facts.ts). */
export interface WorkspaceFacts {
  /** Mailboxes that send (seeds only receive, so they do not count). */
  mailboxes: number;
  /** Domains of those mailboxes, and how many of them publish SPF, DKIM and DMARC records. */
  sendingDomains: number;
  authenticatedDomains: number;
  /** Sending mailboxes whose warmup was ever started (paused counts) or that are marked already warm. */
  warmedMailboxes: number;
  /** Whether the workspace has any lead (an existence test: a workspace may hold millions). */
  hasLeads: boolean;
  /** The newest campaign with at least one step, if any, and whether any campaign has none yet. */
  campaignWithStepId: string | null;
  draftWithoutStepId: string | null;
  /** A campaign that is active, paused, or has sent at least once. */
  launched: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The six items in their order, each from the facts alone (a pure function: the tests table it). */
export function checklistItems(f: WorkspaceFacts): OnboardingItem[] {
  const dnsDone = f.sendingDomains > 0 && f.authenticatedDomains === f.sendingDomains;
  return [
    {
      id: "mailbox",
      label: "Connect a mailbox",
      done: f.mailboxes > 0,
      href: "/mailboxes",
      detail: f.mailboxes > 0 ? `${plural(f.mailboxes, "mailbox", "mailboxes")} connected` : null,
    },
    {
      id: "dns",
      label: "SPF, DKIM and DMARC found for your sending domains",
      done: dnsDone,
      href: "/domains",
      detail:
        f.sendingDomains === 0
          ? "Connect a mailbox first: its domain is checked automatically"
          : `${f.authenticatedDomains} of ${plural(f.sendingDomains, "domain")} publish all three`,
    },
    {
      id: "warmup",
      label: "Start warmup",
      done: f.warmedMailboxes > 0,
      href: "/mailboxes",
      detail: f.warmedMailboxes > 0 ? `${plural(f.warmedMailboxes, "mailbox", "mailboxes")} warming or already warm` : null,
    },
    {
      id: "leads",
      label: "Import leads",
      done: f.hasLeads,
      href: "/leads",
      detail: null,
    },
    {
      id: "campaign",
      label: "Create a campaign with a step",
      done: f.campaignWithStepId !== null,
      href: f.campaignWithStepId === null && f.draftWithoutStepId ? `/campaigns/${f.draftWithoutStepId}?tab=sequence` : "/campaigns",
      detail: f.campaignWithStepId === null && f.draftWithoutStepId ? "Your campaign has no step yet: write its first email" : null,
    },
    {
      id: "launch",
      label: "Launch a campaign",
      done: f.launched,
      href: f.campaignWithStepId ? `/campaigns/${f.campaignWithStepId}` : "/campaigns",
      detail: null,
    },
  ];
}
