import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { patchWarmup } from "@/lib/warmup/manage";

export const PATCH = api(warmupRoutes.patch, async ({ ctx, params, body }) => patchWarmup(ctx, params.id, body));
