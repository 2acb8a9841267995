import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { selectPool } from "@/lib/campaigns/pool";

export const POST = api(r.selectPool, async ({ ctx, params, body }) => selectPool(ctx, params.id, body));
