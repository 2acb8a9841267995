import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { getPresets } from "@/lib/warmup/presets";

export const GET = api(warmupRoutes.presets, async ({ ctx }) => getPresets(ctx));
