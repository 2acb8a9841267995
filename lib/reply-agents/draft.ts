import type { DbOrTx } from "../../db/client";
import type { replies } from "../../db/schema";
import { aiProviderFor } from "../ai/resolve";
import { agentForCampaign } from "./crud";
import { searchKnowledge } from "./search";
import { newText } from "../ai/classify";
import { PASSAGES } from "./answer";
import { composeAnswer } from "./compose";

/**
 * The draft the composer shows in a campaign with a reply agent (autonomy on or off): the agent's
 * answer grounded in its top passages, as it would send it. Undefined without an agent, or when its
 * knowledge has nothing on the message (the ordinary draft is used then).
 */
export async function agentDraft(
  db: DbOrTx,
  r: typeof replies.$inferSelect,
  who: { leadName: string | null; senderName: string | null },
  now: Date,
): Promise<{ body: string; provider: string; agent: { id: string; name: string } } | undefined> {
  const agent = r.campaignId ? await agentForCampaign(db, r.workspaceId, r.campaignId) : null;
  if (!agent) return undefined;
  const question = newText(r.textBody).trim() || r.subject;
  const passages = await searchKnowledge(db, r.workspaceId, agent.id, question, PASSAGES, now);
  if (!passages.length) return undefined;
  const complete = (await aiProviderFor(db, r.workspaceId)).complete ?? null;
  const { body, provider } = await composeAnswer({ agent, ...who, theirMessage: r.textBody, passages }, complete);
  return { body, provider: `agent-${provider}`, agent: { id: agent.id, name: agent.name } };
}
