import { z } from "zod";
import { pageQuery } from "../paging";

/** Every webhook event (see docs/webhooks.md) can be subscribed to. */
export const EVENT_NAMES = [
  "email.sent",
  "email.opened",
  "email.clicked",
  "email.bounced",
  "email.replied",
  "email.positive_reply",
  "lead.unsubscribed",
  "lead.branched",
  "mailbox.disconnected",
  "mailbox.reconnected",
  "warmup.status_changed",
  "placement.completed",
  "mailbox.bounce_spike",
  "webhook.test",
] as const;

const events = z.array(z.enum(EVENT_NAMES)).min(1, "subscribe to at least one event").max(EVENT_NAMES.length);
const url = z.string().trim().max(2048);

export const createWebhookBody = z.object({
  url,
  events,
  active: z.boolean().optional(),
  retryAttempts: z.number().int().min(1).max(10).optional(),
  timeoutMs: z.number().int().min(1000).max(30000).optional(),
});

export const patchWebhookBody = z
  .object({
    url: url.optional(),
    events: events.optional(),
    active: z.boolean().optional(),
    retryAttempts: z.number().int().min(1).max(10).optional(),
    timeoutMs: z.number().int().min(1000).max(30000).optional(),
  })
  .refine((o) => Object.keys(o).length > 0, "send at least one field");

export const listDeliveriesQuery = pageQuery({ defaultLimit: 50, maxLimit: 100 }).extend({
  status: z.enum(["PENDING", "DELIVERED", "FAILED"]).optional(),
});
