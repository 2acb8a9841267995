import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { NotFoundError } from "@/lib/errors";
import { isPresetClass, putPreset } from "@/lib/warmup/presets";

export const PUT = api(warmupRoutes.putPreset, async ({ ctx, params, body }) => {
  if (!isPresetClass(params.class)) throw new NotFoundError(`Preset class ${params.class} (use GOOGLE, MICROSOFT or OTHER)`);
  return putPreset(ctx, params.class, body);
});
