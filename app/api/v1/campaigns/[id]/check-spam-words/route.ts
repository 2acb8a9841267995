import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { checkSpamWords } from "@/lib/campaigns/spam-words";

export const POST = api(r.spamWords, async ({ ctx, params }) => checkSpamWords(ctx, params.id));
