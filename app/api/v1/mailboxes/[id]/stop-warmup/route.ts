import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { stopWarmup } from "@/lib/warmup/manage";

export const POST = api(warmupRoutes.stop, async ({ ctx, params }) => stopWarmup(ctx, params.id));
