import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { leadsCsv } from "@/lib/analytics/leads-csv";

export const GET = api(r.leadsCsv, async ({ ctx, query }) => leadsCsv(ctx, query));
