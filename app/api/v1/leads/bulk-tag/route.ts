import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { bulkTagLeads } from "@/lib/tags/bulk-tags";

export const POST = api(leadRoutes.bulkTag, async ({ ctx, body }) => bulkTagLeads(ctx, body));
