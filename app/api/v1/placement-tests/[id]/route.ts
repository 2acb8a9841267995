import { api } from "@/lib/api/handler";
import { placementRoutes as r } from "@/lib/api/contracts/placement";
import { getPlacementTest } from "@/lib/placement/view";

export const GET = api(r.get, async ({ ctx, params }) => getPlacementTest(ctx, params.id));
