import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { resolvePeriod } from "@/lib/analytics/period";
import { analyticsCsv } from "@/lib/analytics/reports";

export const GET = api(r.analyticsCsv, async ({ ctx, query }) => analyticsCsv(ctx, resolvePeriod(query, ctx.clock.now())));
