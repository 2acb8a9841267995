import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { aiSearch } from "@/lib/finder/ai-search";

export const POST = api(finderRoutes.aiSearch, async ({ ctx, body }) => aiSearch(ctx, body));
