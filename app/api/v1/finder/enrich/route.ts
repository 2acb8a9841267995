import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { startEnrich } from "@/lib/finder/enrich-jobs";

export const POST = api(finderRoutes.enrich, async ({ ctx, body }) => startEnrich(ctx, body));
