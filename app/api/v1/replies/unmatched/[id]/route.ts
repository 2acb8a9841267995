import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { getUnmatched } from "@/lib/inbox/read";

export const GET = api(r.unmatchedOne, async ({ ctx, params }) => getUnmatched(ctx, params.id));
