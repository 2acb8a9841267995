import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { getEngagementSettings, putEngagementSettings } from "@/lib/analytics/engagement-settings";

export const GET = api(r.getEngagement, async ({ ctx }) => getEngagementSettings(ctx));
export const PUT = api(r.putEngagement, async ({ ctx, body }) => putEngagementSettings(ctx, body));
