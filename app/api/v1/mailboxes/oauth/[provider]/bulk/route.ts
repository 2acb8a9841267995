import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { startBulkConnect } from "@/lib/mailboxes/oauth-bulk";
import { requireProvider } from "@/lib/oauth/providers";

export const POST = api(oauthRoutes.bulkStart, async ({ ctx, params, body }) =>
  startBulkConnect(ctx, requireProvider(params.provider), body),
);
