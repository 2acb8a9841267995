import { api } from "@/lib/api/handler";
import { aiRoutes as r } from "@/lib/api/contracts/ai-crm";
import { draftReply } from "@/lib/reply-agents/draft-reply";

export const POST = api(r.draft, async ({ ctx, params }) => draftReply(ctx, params.id));
