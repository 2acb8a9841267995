import { runAgentReplies } from "../../lib/reply-agents/run";
import type { JobDef } from "../../lib/jobs/registry";

/** Reply agents' autonomous answers and follow-ups: due work every 5 s locally, so an answer leaves within a minute. */
export const agentRepliesJob: JobDef = {
  name: "agent-replies",
  cron: "* * * * *",
  everyMs: 5_000,
  run: runAgentReplies,
};
