import { api } from "@/lib/api/handler";
import { agentReplyRoutes as r } from "@/lib/api/contracts/agent-replies";
import { agentActivity } from "@/lib/agent-replies/activity";

export const GET = api(r.activity, async ({ ctx, params, query }) => agentActivity(ctx, params.id, query));
