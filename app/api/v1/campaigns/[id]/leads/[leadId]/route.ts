import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { removeLead } from "@/lib/campaigns/campaign-leads";

export const DELETE = api(r.removeLead, async ({ ctx, params }) => removeLead(ctx, params.id, params.leadId));
