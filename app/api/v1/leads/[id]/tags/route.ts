import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { attachTagToLead } from "@/lib/tags/tags";

export const POST = api(leadRoutes.attachTag, async ({ ctx, params, body }) => attachTagToLead(ctx, params.id, body));
