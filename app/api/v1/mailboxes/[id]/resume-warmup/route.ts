import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { resumeWarmup } from "@/lib/warmup/manage";

export const POST = api(warmupRoutes.resume, async ({ ctx, params }) => resumeWarmup(ctx, params.id));
