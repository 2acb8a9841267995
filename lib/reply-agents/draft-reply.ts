import { and, eq } from "drizzle-orm";
import { leads, mailboxes, replies } from "../../db/schema";
import { agentDraft } from "./draft";
import { generatedByOf } from "../ai/provider";
import { aiProviderFor } from "../ai/resolve";
import { loadAiSettings, useCredit } from "../ai/settings";
import { requireAccess, type Ctx } from "../ctx";
import { ForbiddenError, NotFoundError, UpstreamError } from "../errors";
import type { Intent } from "../ai/classify";

/**
 * POST /replies/<id>/draft: an AI draft of our answer. One credit; never sends. In a campaign with a
 * reply agent, the draft is the agent's answer grounded in its knowledge (what it would send with
 * autonomy on), for a person to review and send; `agent` says so. `generatedBy` says how it was made:
 * `ai` by the workspace's model, `template` by the built-in template (no provider, or the agent's
 * fallback quoting its knowledge).
 */
export async function draftReply(ctx: Ctx, replyId: string) {
  requireAccess(ctx, "write");
  const [row] = await ctx.db
    .select({ r: replies, senderName: mailboxes.senderName, firstName: leads.firstName })
    .from(replies)
    .innerJoin(mailboxes, eq(mailboxes.id, replies.mailboxId))
    .leftJoin(leads, eq(leads.id, replies.leadId))
    .where(and(eq(replies.id, replyId), eq(replies.workspaceId, ctx.workspaceId)));
  if (!row) throw new NotFoundError("Reply");
  const settings = await loadAiSettings(ctx.db, ctx.workspaceId);
  if (!settings.aiDraftEnabled) throw new ForbiddenError("AI drafts are turned off for this workspace (PATCH /ai-settings aiDraftEnabled)");
  const { remaining } = await useCredit(ctx.db, ctx.workspaceId, ctx.clock.now());
  const to = row.r.from ? [row.r.from] : [];
  const leadName = row.firstName ?? row.r.from?.name ?? null;
  const byAgent = await agentDraft(ctx.db, row.r, { leadName, senderName: row.senderName }, ctx.clock.now());
  if (byAgent) {
    const generatedBy = byAgent.provider === "agent-ai" ? "ai" : "template";
    return {
      draft: { body: byAgent.body, to },
      provider: byAgent.provider,
      generatedBy,
      creditsRemaining: remaining,
      agent: byAgent.agent,
    };
  }
  const p = await aiProviderFor(ctx.db, ctx.workspaceId);
  try {
    const body = await p.draft({
      leadName,
      senderName: row.senderName,
      subject: row.r.subject,
      theirMessage: row.r.textBody,
      intent: row.r.intent as Intent,
      customInstructions: settings.customInstructions,
    });
    return { draft: { body, to }, provider: p.name, generatedBy: generatedByOf(p), creditsRemaining: remaining, agent: null };
  } catch (e) {
    throw new UpstreamError(`The AI provider failed: ${(e as Error).message}`);
  }
}
