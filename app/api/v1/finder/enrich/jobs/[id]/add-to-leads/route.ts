import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { addJobToLeads } from "@/lib/finder/add-to-leads";

export const POST = api(finderRoutes.addToLeads, async ({ ctx, params, body }) => addJobToLeads(ctx, params.id, body));
