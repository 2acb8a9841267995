import { api } from "@/lib/api/handler";
import { placementRoutes as r } from "@/lib/api/contracts/placement";
import { startPlacementTest } from "@/lib/placement/start";
import { listPlacementTests } from "@/lib/placement/view";

export const POST = api(r.start, async ({ ctx, body }) => startPlacementTest(ctx, body));
export const GET = api(r.list, async ({ ctx, query }) => listPlacementTests(ctx, query));
