import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { analyticsOverview } from "@/lib/analytics/overview";
import { resolvePeriod } from "@/lib/analytics/period";

export const GET = api(r.overview, async ({ ctx, query }) => analyticsOverview(ctx, resolvePeriod(query, ctx.clock.now())));
