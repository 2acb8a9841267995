import { api } from "@/lib/api/handler";
import { webhookRoutes as r } from "@/lib/api/contracts/webhooks";
import { envelope } from "@/lib/paging";
import { listDeliveries } from "@/lib/webhooks/webhooks";

export const GET = api(r.deliveries, async ({ ctx, params, query }) => {
  const { rows, total } = await listDeliveries(ctx, params.id, query);
  return envelope("deliveries", rows, total, query);
});
