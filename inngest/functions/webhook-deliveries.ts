import type { JobDef } from "../../lib/jobs/registry";
import { runWebhookDeliveries } from "../../lib/webhooks/turn";

/** Webhook deliveries: every second locally (a backlog is worked through for up to ~5 s per run). */
export const webhookDispatchJob: JobDef = {
  name: "webhook-deliveries",
  cron: "* * * * *",
  everyMs: 1_000,
  run: async (ctx) => ({ ...(await runWebhookDeliveries(ctx)) }),
};
