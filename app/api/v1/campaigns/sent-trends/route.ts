import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { sentTrends } from "@/lib/campaigns/stats-views";

export const GET = api(r.sentTrends, async ({ ctx, query }) => sentTrends(ctx, query.days));
