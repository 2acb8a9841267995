import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { envelope } from "@/lib/paging";
import { addLeadsToCampaign, listCampaignLeads } from "@/lib/campaigns/campaign-leads";

export const GET = api(r.listLeads, async ({ ctx, params, query }) => {
  const { rows, total } = await listCampaignLeads(ctx, params.id, query);
  return envelope("leads", rows, total, query);
});
export const POST = api(r.addLeads, async ({ ctx, params, body }) => addLeadsToCampaign(ctx, params.id, body.leadIds));
