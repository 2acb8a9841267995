import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { duplicateCampaign } from "@/lib/campaigns/campaigns";

export const POST = api(r.duplicate, async ({ ctx, params, body }) =>
  Response.json(await duplicateCampaign(ctx, params.id, body), { status: 201 }),
);
