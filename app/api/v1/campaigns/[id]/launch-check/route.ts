import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { getLaunchReport } from "@/lib/campaigns/campaigns";

export const GET = api(r.launchCheck, async ({ ctx, params }) => getLaunchReport(ctx, params.id));
