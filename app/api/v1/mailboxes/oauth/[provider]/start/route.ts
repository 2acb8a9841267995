import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { NotFoundError } from "@/lib/errors";
import { startConsent } from "@/lib/oauth/flow";
import { parseProvider } from "@/lib/oauth/providers";

export const POST = api(oauthRoutes.start, async ({ ctx, params, body }) => {
  const provider = parseProvider(params.provider);
  if (!provider) throw new NotFoundError("OAuth provider (google or microsoft)");
  return startConsent(ctx, provider, body);
});
