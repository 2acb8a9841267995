import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { bulkArchive } from "@/lib/campaigns/campaigns";

export const POST = api(r.bulkArchive, async ({ ctx, body }) => bulkArchive(ctx, body.campaignIds));
