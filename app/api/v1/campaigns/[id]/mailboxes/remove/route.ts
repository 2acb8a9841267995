import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { removeFromPool } from "@/lib/campaigns/pool";

export const POST = api(r.removePool, async ({ ctx, params, body }) => removeFromPool(ctx, params.id, body.mailboxIds));
