import { api } from "@/lib/api/handler";
import { webhookRoutes as r } from "@/lib/api/contracts/webhooks";
import { rotateSecret } from "@/lib/webhooks/webhooks";

export const POST = api(r.rotate, async ({ ctx, params }) => rotateSecret(ctx, params.id));
