import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { getLead } from "@/lib/leads/read-leads";
import { patchLead } from "@/lib/leads/update-leads";

export const GET = api(leadRoutes.get, async ({ ctx, params }) => getLead(ctx, params.id));
export const PATCH = api(leadRoutes.patch, async ({ ctx, params, body }) => patchLead(ctx, params.id, body));
