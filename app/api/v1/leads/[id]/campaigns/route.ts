import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { leadCampaigns } from "@/lib/leads/lead-campaigns";

export const GET = api(leadRoutes.campaigns, async ({ ctx, params }) => ({ campaigns: await leadCampaigns(ctx, params.id) }));
