import { api } from "@/lib/api/handler";
import { aiRoutes as r } from "@/lib/api/contracts/ai-crm";
import { getAiSettings, patchAiSettings } from "@/lib/ai/settings";

export const GET = api(r.get, async ({ ctx }) => getAiSettings(ctx));
export const PATCH = api(r.patch, async ({ ctx, body }) => patchAiSettings(ctx, body));
