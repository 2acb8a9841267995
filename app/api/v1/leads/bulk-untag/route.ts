import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { bulkUntagLeads } from "@/lib/tags/bulk-tags";

export const POST = api(leadRoutes.bulkUntag, async ({ ctx, body }) => bulkUntagLeads(ctx, body));
