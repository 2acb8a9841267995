import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { previewSearch } from "@/lib/reply-agents/knowledge-preview";

export const POST = api(r.search, async ({ ctx, params, body }) => previewSearch(ctx, params.id, body));
