import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { resolvePeriod } from "@/lib/analytics/period";
import { domainStats } from "@/lib/analytics/senders";

export const GET = api(r.domainStats, async ({ ctx, query }) => domainStats(ctx, resolvePeriod(query, ctx.clock.now())));
