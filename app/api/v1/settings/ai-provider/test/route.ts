import { api } from "@/lib/api/handler";
import { aiProviderRoutes as r } from "@/lib/api/contracts/ai-provider";
import { testAiProvider } from "@/lib/ai/provider-setting";

export const POST = api(r.test, async ({ ctx }) => testAiProvider(ctx));
