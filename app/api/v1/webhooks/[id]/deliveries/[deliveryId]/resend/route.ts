import { api } from "@/lib/api/handler";
import { webhookRoutes as r } from "@/lib/api/contracts/webhooks";
import { resendDelivery } from "@/lib/webhooks/webhooks";

export const POST = api(r.resend, async ({ ctx, params }) => resendDelivery(ctx, params.id, params.deliveryId));
