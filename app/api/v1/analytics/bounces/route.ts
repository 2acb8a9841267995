import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { bounceLog } from "@/lib/analytics/bounces";
import { resolvePeriod } from "@/lib/analytics/period";

export const GET = api(r.bounces, async ({ ctx, query }) => bounceLog(ctx, resolvePeriod(query, ctx.clock.now()), query));
