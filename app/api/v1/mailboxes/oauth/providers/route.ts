import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { oauthStatus } from "@/lib/oauth/providers";

export const GET = api(oauthRoutes.providers, async () => ({ providers: oauthStatus() }));
