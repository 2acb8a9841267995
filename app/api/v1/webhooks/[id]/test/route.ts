import { api } from "@/lib/api/handler";
import { webhookRoutes as r } from "@/lib/api/contracts/webhooks";
import { testWebhook } from "@/lib/webhooks/webhooks";

export const POST = api(r.test, async ({ ctx, params }) => testWebhook(ctx, params.id));
