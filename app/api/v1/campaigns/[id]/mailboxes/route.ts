import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { getPool, replacePool } from "@/lib/campaigns/pool";

export const GET = api(r.getPool, async ({ ctx, params }) => getPool(ctx, params.id));
export const PUT = api(r.putPool, async ({ ctx, params, body }) => replacePool(ctx, params.id, body.mailboxIds));
