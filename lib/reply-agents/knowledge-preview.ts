import type { z } from "zod";
import { requireAccess, type Ctx } from "../ctx";
import { findAgent } from "./crud";
import type { searchBody } from "./schemas";
import { searchKnowledge } from "./search";

/** POST /reply-agents/<id>/search: the passages an answer would be grounded in (default 5). */
export async function previewSearch(ctx: Ctx, agentId: string, input: z.infer<typeof searchBody>) {
  requireAccess(ctx, "write");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const hits = await searchKnowledge(ctx.db, ctx.workspaceId, agentId, input.query, input.limit ?? 5, ctx.clock.now());
  return { results: hits.map(({ source, title, snippet, score }) => ({ source, title, snippet, score })) };
}
