import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { getCampaignTimeseries } from "@/lib/campaigns/stats-views";

export const GET = api(r.timeseries, async ({ ctx, params, query }) => getCampaignTimeseries(ctx, params.id, query.days));
