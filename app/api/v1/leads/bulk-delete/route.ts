import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { bulkDeleteLeads } from "@/lib/leads/update-leads";

export const POST = api(leadRoutes.bulkDelete, async ({ ctx, body }) => bulkDeleteLeads(ctx, body.leadIds));
