import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { getSettings, updateSettings } from "@/lib/campaigns/campaigns";

export const GET = api(r.getSettings, async ({ ctx, params }) => getSettings(ctx, params.id));
export const PATCH = api(r.patchSettings, async ({ ctx, params, body }) => updateSettings(ctx, params.id, body));
