import type { BadgeTone } from "@/components/ui/badge";
import type { MailboxView } from "@/lib/mailboxes/schemas";
import type { MailboxIssue } from "./queries";

export const HEALTH: Record<MailboxView["healthStatus"], { label: string; tone: BadgeTone; about: string }> = {
  HEALTHY: { label: "Healthy", tone: "green", about: "The last SMTP and IMAP logins worked." },
  UNCHECKED: { label: "Not checked yet", tone: "gray", about: "The periodic login check has not run on this mailbox yet." },
  LOGIN_FAILING: { label: "Login failing", tone: "red", about: "The SMTP login is refused: nothing sends from this mailbox." },
  READ_FAILING: {
    label: "Replies unreadable",
    tone: "yellow",
    about: "The IMAP login has failed for 30 minutes or more: replies stop reaching the inbox.",
  },
  AUTO_PAUSED: { label: "Auto-paused", tone: "red", about: "Paused automatically because too many of its emails bounced." },
  PAUSED: { label: "Paused", tone: "gray", about: "Sending is turned off for this mailbox." },
};

/** The warmup status names, as the dashboard shows them. */
export const WARMUP: Record<string, { label: string; tone: BadgeTone }> = {
  OFF: { label: "Off", tone: "gray" },
  EARLY: { label: "Early (first 14 days)", tone: "yellow" },
  RAMPING: { label: "Ramping", tone: "blue" },
  STEADY: { label: "Steady", tone: "green" },
  PAUSED: { label: "Paused", tone: "gray" },
  AUTO_PAUSED: { label: "Auto-paused", tone: "red" },
};

export const ISSUE_KIND: Record<MailboxIssue["kind"], string> = {
  LOGIN_FAILING: "Login failing",
  READ_FAILING: "Replies unreadable",
  AUTO_PAUSED: "Auto-paused (bounces)",
};

const PROVIDERS: Record<string, string> = {
  GOOGLE: "Google",
  MICROSOFT: "Microsoft",
  YAHOO: "Yahoo",
  ZOHO: "Zoho",
  ICLOUD: "iCloud",
  FASTMAIL: "Fastmail",
  CUSTOM: "Own SMTP/IMAP",
};

export function providerLabel(m: Pick<MailboxView, "provider">): string {
  return PROVIDERS[m.provider] ?? m.provider;
}
