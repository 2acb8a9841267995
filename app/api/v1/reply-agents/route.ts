import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { createAgent, listAgents } from "@/lib/reply-agents/crud";

export const GET = api(r.list, async ({ ctx }) => listAgents(ctx));
export const POST = api(r.create, async ({ ctx, body }) => createAgent(ctx, body));
