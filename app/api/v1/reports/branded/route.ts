import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { resolvePeriod } from "@/lib/analytics/period";
import { brandedReport } from "@/lib/analytics/reports";

export const GET = api(r.branded, async ({ ctx, query }) => brandedReport(ctx, resolvePeriod(query, ctx.clock.now())));
