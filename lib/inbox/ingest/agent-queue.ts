import { type SQL, sql } from "drizzle-orm";
import { recordset } from "../../../db/bulk";
import { agentReplies, replies } from "../../../db/schema";

/** The intents an agent answers; never OUT_OF_OFFICE, UNSUBSCRIBE_REQUEST, NOT_INTERESTED or WRONG_PERSON. */
export const ANSWERED_INTENTS: readonly string[] = ["INTERESTED", "QUESTION"];

/** A stored reply as ingestion plans it: what decides whether an agent should answer it. */
export interface IngestedReply {
  id: string | null;
  workspaceId: string | null;
  leadId: string | null;
  campaignId: string | null;
  intent: string | null;
  isAutoReply: boolean | null;
}

const QUEUE = {
  replyId: agentReplies.replyId,
  workspaceId: agentReplies.workspaceId,
  leadId: agentReplies.leadId,
  campaignId: agentReplies.campaignId,
} as const;

/**
 * The statement that gives the agent of each reply's campaign (when its autonomousReplies is on) the
 * reply to answer, due at once; undefined when no reply of the batch can be answered (a person's
 * INTERESTED or QUESTION reply in a campaign), so most batches send no extra statement. It is one more
 * statement of the ingest transaction: it never calls out, so it cannot hold ingestion up. Only rows
 * of replies the batch wrote (a reply id is new, so one that exists was just written); the primary key
 * makes a second queueing of the same message a no-op.
 */
export function queueAgentAnswers(rows: readonly IngestedReply[], now: Date): SQL | undefined {
  const answerable = rows.filter((r) => r.id && r.leadId && r.campaignId && !r.isAutoReply && ANSWERED_INTENTS.includes(r.intent ?? ""));
  if (!answerable.length) return undefined;
  const q = recordset(
    "q",
    QUEUE,
    answerable.map((r) => ({ replyId: r.id, workspaceId: r.workspaceId, leadId: r.leadId, campaignId: r.campaignId })),
  );
  const at = now.toISOString();
  return sql`insert into ${agentReplies} (reply_id, kind, workspace_id, agent_id, lead_id, campaign_id, status, due_at, created_at)
    select ${q.col("replyId")}, 'ANSWER', ${q.col("workspaceId")}, a.id, ${q.col("leadId")}, ${q.col("campaignId")}, 'PENDING',
      ${at}::timestamptz, ${at}::timestamptz
    from ${q.from}
    join reply_agent_campaigns rac on rac.campaign_id = ${q.col("campaignId")}
    join reply_agents a on a.id = rac.agent_id and a.workspace_id = ${q.col("workspaceId")} and a.autonomous_replies
    where coalesce((select true from ${replies} where ${replies.id} = ${q.col("replyId")} limit 1), false)
    on conflict do nothing`;
}
