import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { deleteAgent, getAgent, patchAgent } from "@/lib/reply-agents/crud";

export const GET = api(r.get, async ({ ctx, params }) => getAgent(ctx, params.id));
export const PATCH = api(r.patch, async ({ ctx, params, body }) => patchAgent(ctx, params.id, body));
export const DELETE = api(r.delete, async ({ ctx, params }) => deleteAgent(ctx, params.id));
