import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { startConsent } from "@/lib/mailboxes/oauth-flow";
import { requireProvider } from "@/lib/oauth/providers";

export const POST = api(oauthRoutes.start, async ({ ctx, params, body }) => startConsent(ctx, requireProvider(params.provider), body));
