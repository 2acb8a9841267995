import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { campaignsCsv } from "@/lib/analytics/reports";

export const GET = api(r.campaignsCsv, async ({ ctx }) => campaignsCsv(ctx));
