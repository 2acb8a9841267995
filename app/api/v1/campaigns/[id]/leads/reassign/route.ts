import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { reassignLeads } from "@/lib/campaigns/campaign-leads";

export const POST = api(r.reassign, async ({ ctx, params, body }) => reassignLeads(ctx, params.id, body));
