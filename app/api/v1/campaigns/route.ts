import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { plainPage } from "@/lib/api/paging";
import { createCampaign, listCampaigns } from "@/lib/campaigns/campaigns";

export const GET = api(r.list, async ({ ctx, query }) => {
  const { rows, total } = await listCampaigns(ctx, query);
  return plainPage(rows, total, query);
});
export const POST = api(r.create, async ({ ctx, body }) => Response.json(await createCampaign(ctx, body), { status: 201 }));
