import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { analyticsTimeseries } from "@/lib/analytics/overview";
import { seriesPeriod } from "@/lib/analytics/period";

export const GET = api(r.timeseries, async ({ ctx, query }) => analyticsTimeseries(ctx, seriesPeriod(query, ctx.clock.now())));
