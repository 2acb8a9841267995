import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { consentedTenants } from "@/lib/oauth/admin-consent";
import { requireProvider } from "@/lib/oauth/providers";

export const GET = api(oauthRoutes.tenants, async ({ ctx, params }) => {
  requireProvider(params.provider, "MICROSOFT");
  return consentedTenants(ctx);
});
