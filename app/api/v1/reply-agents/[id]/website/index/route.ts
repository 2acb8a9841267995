import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/agents";
import { indexPages } from "@/lib/agents/website";

export const POST = api(r.index, async ({ ctx, params, body }) => indexPages(ctx, params.id, body));
