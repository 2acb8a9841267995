import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { startAdminConsent } from "@/lib/oauth/admin-consent";
import { requireProvider } from "@/lib/oauth/providers";

export const POST = api(oauthRoutes.adminConsent, async ({ ctx, params, body }) => {
  requireProvider(params.provider, "MICROSOFT");
  return startAdminConsent(ctx, body ?? {});
});
