import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { getCampaignStats } from "@/lib/campaigns/stats-views";

export const GET = api(r.stats, async ({ ctx, params }) => getCampaignStats(ctx, params.id));
