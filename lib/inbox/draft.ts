import { and, eq } from "drizzle-orm";
import { leads, mailboxes, replies } from "../../db/schema";
import { aiProvider } from "../ai/provider";
import { loadAiSettings, useCredit } from "../ai/settings";
import { requireAccess, type Ctx } from "../ctx";
import { ForbiddenError, NotFoundError, UpstreamError } from "../errors";
import type { Intent } from "./classify";

/** POST /replies/<id>/draft: an AI draft of our answer. One credit; never sends. */
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
  const p = aiProvider();
  try {
    const body = await p.draft({
      leadName: row.firstName ?? row.r.from?.name ?? null,
      senderName: row.senderName,
      subject: row.r.subject,
      theirMessage: row.r.textBody,
      intent: row.r.intent as Intent,
      customInstructions: settings.customInstructions,
    });
    return { draft: { body, to: row.r.from ? [row.r.from] : [] }, provider: p.name, creditsRemaining: remaining };
  } catch (e) {
    throw new UpstreamError(`The AI provider failed: ${(e as Error).message}`);
  }
}
