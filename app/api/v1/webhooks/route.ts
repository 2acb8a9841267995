import { api } from "@/lib/api/handler";
import { webhookRoutes as r } from "@/lib/api/contracts/webhooks";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";

export const GET = api(r.list, async ({ ctx }) => ({ webhooks: await listWebhooks(ctx) }));
export const POST = api(r.create, async ({ ctx, body }) => Response.json(await createWebhook(ctx, body), { status: 201 }));
