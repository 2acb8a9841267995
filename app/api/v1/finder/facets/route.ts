import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { facetCounts } from "@/lib/finder/search";

export const POST = api(finderRoutes.facets, async ({ ctx, body }) => facetCounts(ctx, body));
