import { api } from "@/lib/api/handler";
import { aiProviderRoutes as r } from "@/lib/api/contracts/ai-provider";
import { deleteAiProviderSetting, getAiProviderSetting, putAiProviderSetting } from "@/lib/ai/provider-setting";

export const GET = api(r.get, async ({ ctx }) => getAiProviderSetting(ctx));
export const PUT = api(r.put, async ({ ctx, body }) => putAiProviderSetting(ctx, body));
export const DELETE = api(r.delete, async ({ ctx }) => deleteAiProviderSetting(ctx));
