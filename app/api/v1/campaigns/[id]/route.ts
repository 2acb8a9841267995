import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { deleteCampaign, getCampaign, updateSettings } from "@/lib/campaigns/campaigns";

export const GET = api(r.get, async ({ ctx, params }) => getCampaign(ctx, params.id));
export const PATCH = api(r.patch, async ({ ctx, params, body }) => updateSettings(ctx, params.id, body));
export const DELETE = api(r.delete, async ({ ctx, params, query }) => deleteCampaign(ctx, params.id, query.deleteLeads === "true"));
