import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { intentCounts } from "@/lib/inbox/read";

export const GET = api(r.intentCounts, async ({ ctx, query }) => intentCounts(ctx, query));
