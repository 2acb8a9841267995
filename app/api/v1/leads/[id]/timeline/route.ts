import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { leadTimeline } from "@/lib/leads/timeline";
import { envelope } from "@/lib/paging";

export const GET = api(leadRoutes.timeline, async ({ ctx, params, query }) => {
  const { rows, total } = await leadTimeline(ctx, params.id, query);
  return envelope("events", rows, total, query);
});
