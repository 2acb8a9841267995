import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { requireProvider } from "@/lib/oauth/providers";
import { deleteServiceAccount, getServiceAccount, parseKeyFile, putServiceAccount } from "@/lib/oauth/service-account";

/** Domain-wide delegation is Google's; Microsoft's bulk connect uses admin consent instead. */
const google = (raw: string) => requireProvider(raw, "GOOGLE");

export const PUT = api(oauthRoutes.serviceAccountPut, async ({ ctx, params, body }) => {
  google(params.provider);
  return putServiceAccount(ctx, parseKeyFile(body.key));
});
export const GET = api(oauthRoutes.serviceAccountGet, async ({ ctx, params }) => {
  google(params.provider);
  return getServiceAccount(ctx);
});
export const DELETE = api(oauthRoutes.serviceAccountDelete, async ({ ctx, params }) => {
  google(params.provider);
  return deleteServiceAccount(ctx);
});
