import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { bulkPatchLeads } from "@/lib/leads/update-leads";

export const PATCH = api(leadRoutes.bulkPatch, async ({ ctx, body }) => bulkPatchLeads(ctx, body.leads));
