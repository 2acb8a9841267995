import { and, count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { agentReplies, leads, replies, sentReplies } from "../../db/schema";
import { findAgent } from "./crud";
import { requireAccess, type Ctx } from "../ctx";
import { offsetOf, pageQuery } from "../paging";

export const activityQuery = pageQuery({ defaultLimit: 50, maxLimit: 200 }).extend({
  status: z.enum(["PENDING", "WORKING", "SENT", "SKIPPED", "FAILED"]).optional().describe("Only this outcome"),
});

/** One piece of an agent's work, as the dashboard's agent page lists it. */
export const activityItemSchema = z.object({
  replyId: z.string().describe("The lead's message answered"),
  kind: z.enum(["ANSWER", "FOLLOW_UP"]),
  status: z.enum(["PENDING", "WORKING", "SENT", "SKIPPED", "FAILED"]),
  reason: z
    .string()
    .nullable()
    .describe("Why skipped or failed (INTENT, AGENT_OFF, ANSWERED, NEWER_MESSAGE, LEAD_ANSWERED, NO_PASSAGE, NO_CREDITS, SEND_FAILED, …)"),
  detail: z.string().nullable(),
  provider: z.string().nullable().describe("ai or fallback"),
  generatedBy: z
    .enum(["template", "ai"])
    .nullable()
    .describe("How the message was written: ai by the AI provider, template by the built-in template; null before it is written"),
  conversationId: z.string().nullable().describe("The lead's id: GET /replies/thread/<leadId>"),
  leadEmail: z.string().nullable(),
  subject: z.string(),
  question: z.string().describe("The start of the lead's message"),
  answer: z.string().nullable().describe("What the agent sent (or tried to)"),
  sentReplyId: z.string().nullable(),
  dueAt: z.string(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export const activityListSchema = z.object({
  activity: z.array(activityItemSchema),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
});

/** GET /reply-agents/<id>/activity: the agent's answers and follow-ups, newest first (404 for another workspace's agent). */
export async function agentActivity(
  ctx: Ctx,
  agentId: string,
  q: z.infer<typeof activityQuery>,
): Promise<z.infer<typeof activityListSchema>> {
  requireAccess(ctx, "read");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const where = and(
    eq(agentReplies.agentId, agentId),
    eq(agentReplies.workspaceId, ctx.workspaceId),
    q.status ? eq(agentReplies.status, q.status) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select({ a: agentReplies, email: leads.email, subject: replies.subject, text: replies.textBody, sentAt: sentReplies.sentAt })
      .from(agentReplies)
      .innerJoin(replies, eq(replies.id, agentReplies.replyId))
      .leftJoin(leads, eq(leads.id, agentReplies.leadId))
      .leftJoin(sentReplies, eq(sentReplies.id, agentReplies.sentReplyId))
      .where(where)
      .orderBy(desc(agentReplies.createdAt), desc(agentReplies.dueAt))
      .limit(q.limit)
      .offset(offsetOf(q)),
    ctx.db.select({ n: count() }).from(agentReplies).where(where),
  ]);
  return {
    activity: rows.map(({ a, email, subject, text, sentAt }) => ({
      replyId: a.replyId,
      kind: a.kind,
      status: a.status,
      reason: a.reason,
      detail: a.detail,
      provider: a.provider,
      generatedBy: a.provider === "ai" ? ("ai" as const) : a.provider ? ("template" as const) : null,
      conversationId: a.leadId,
      leadEmail: email,
      subject,
      question: text.slice(0, 300),
      answer: a.body,
      sentReplyId: a.sentReplyId,
      dueAt: a.dueAt.toISOString(),
      sentAt: sentAt?.toISOString() ?? null,
      createdAt: a.createdAt.toISOString(),
    })),
    page: q.page,
    limit: q.limit,
    total: n,
  };
}
