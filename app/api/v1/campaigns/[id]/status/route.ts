import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { setStatus } from "@/lib/campaigns/campaigns";

export const PATCH = api(r.status, async ({ ctx, params, body }) => setStatus(ctx, params.id, body));
