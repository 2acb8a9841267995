import type { BadgeTone } from "@/components/ui/badge";
import type { EVENT_NAMES } from "@/lib/webhooks/schemas";
import type { DeliveryStatus } from "./types";

/** What each webhook event means, for the checkboxes of the form. */
export const EVENT_HINTS: Record<(typeof EVENT_NAMES)[number], string> = {
  "email.sent": "An email of a campaign left a mailbox",
  "email.opened": "A recipient opened an email",
  "email.clicked": "A recipient clicked a tracked link",
  "email.bounced": "An email bounced",
  "email.replied": "A lead replied",
  "email.positive_reply": "A reply was classified as positive",
  "lead.unsubscribed": "A lead unsubscribed",
  "lead.branched": "A lead took a branch of a sequence",
  "mailbox.disconnected": "A mailbox's login stopped working",
  "mailbox.reconnected": "A mailbox works again",
  "warmup.status_changed": "A mailbox's warmup status changed",
  "placement.completed": "An inbox placement test finished",
  "mailbox.bounce_spike": "A mailbox's bounce rate spiked",
  "webhook.test": "Test events sent from this page",
};

export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; tone: BadgeTone }> = {
  PENDING: { label: "Pending", tone: "yellow" },
  DELIVERED: { label: "Delivered", tone: "green" },
  FAILED: { label: "Failed", tone: "red" },
};

export const RETRY_RANGE = { min: 1, max: 10, default: 3 } as const;
export const TIMEOUT_RANGE = { min: 1000, max: 30000, default: 10000 } as const;

/** "10 s", "2.5 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toLocaleString(undefined, { maximumFractionDigits: 1 })} s`;
}
