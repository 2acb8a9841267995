import { api } from "@/lib/api/handler";
import { envelope } from "@/lib/paging";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { campaignActivity } from "@/lib/campaigns/stats-views";

export const GET = api(r.activity, async ({ ctx, params, query }) => {
  const { rows, total } = await campaignActivity(ctx, params.id, query);
  return envelope("emails", rows, total, query);
});
