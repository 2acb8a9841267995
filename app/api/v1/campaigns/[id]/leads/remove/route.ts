import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { removeLeads } from "@/lib/campaigns/campaign-leads";

export const POST = api(r.removeLeads, async ({ ctx, params, body }) => removeLeads(ctx, params.id, body.leadIds));
