import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { startWarmup } from "@/lib/warmup/manage";

export const POST = api(warmupRoutes.start, async ({ ctx, params, body }) => startWarmup(ctx, params.id, body));
