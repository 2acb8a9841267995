import { api } from "@/lib/api/handler";
import { webhookRoutes as r } from "@/lib/api/contracts/webhooks";
import { deleteWebhook, getWebhook, patchWebhook } from "@/lib/webhooks/webhooks";

export const GET = api(r.get, async ({ ctx, params }) => getWebhook(ctx, params.id));
export const PATCH = api(r.patch, async ({ ctx, params, body }) => patchWebhook(ctx, params.id, body));
export const DELETE = api(r.delete, async ({ ctx, params }) => deleteWebhook(ctx, params.id));
