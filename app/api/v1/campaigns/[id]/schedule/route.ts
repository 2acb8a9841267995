import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { forecastSchedule } from "@/lib/campaigns/schedule";

export const GET = api(r.schedule, async ({ ctx, params, query }) => forecastSchedule(ctx, params.id, query));
