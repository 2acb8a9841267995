import { defineRoute } from "../route";
import { activityListSchema, activityQuery } from "../../reply-agents/activity";

/** A reply agent's autonomous work (the agent's activity). */
export const agentReplyRoutes = {
  activity: defineRoute({
    method: "GET",
    path: "/reply-agents/{id}/activity",
    tag: "Reply agents",
    access: "read",
    query: activityQuery,
    summary:
      "The agent's answers and follow-ups, newest first: sent (with the conversation's lead id), pending, skipped or failed with the reason",
    response: { description: "`{ activity, page, limit, total }`", schema: activityListSchema },
  }),
};
