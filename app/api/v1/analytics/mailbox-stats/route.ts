import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { resolvePeriod } from "@/lib/analytics/period";
import { mailboxStats } from "@/lib/analytics/senders";

export const GET = api(r.mailboxStats, async ({ ctx, query }) => mailboxStats(ctx, resolvePeriod(query, ctx.clock.now()), query.domain));
