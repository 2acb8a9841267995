import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { estimateEnrich } from "@/lib/finder/enrich-jobs";

export const POST = api(finderRoutes.estimate, async ({ ctx, body }) => estimateEnrich(ctx, body.personIds));
