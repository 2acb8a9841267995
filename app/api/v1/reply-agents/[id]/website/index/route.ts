import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { indexPages } from "@/lib/reply-agents/website";

export const POST = api(r.index, async ({ ctx, params, body }) => indexPages(ctx, params.id, body));
