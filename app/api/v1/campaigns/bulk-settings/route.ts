import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { bulkSettings } from "@/lib/campaigns/campaigns";

export const PATCH = api(r.bulkSettings, async ({ ctx, body }) => bulkSettings(ctx, body.campaignIds, body.settings));
