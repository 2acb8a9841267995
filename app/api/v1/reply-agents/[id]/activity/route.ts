import { api } from "@/lib/api/handler";
import { agentReplyRoutes as r } from "@/lib/api/contracts/reply-agent-activity";
import { agentActivity } from "@/lib/reply-agents/activity";

export const GET = api(r.activity, async ({ ctx, params, query }) => agentActivity(ctx, params.id, query));
