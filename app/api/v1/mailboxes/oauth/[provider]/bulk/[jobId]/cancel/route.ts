import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { cancelBulkJob } from "@/lib/mailboxes/oauth-bulk";
import { requireProvider } from "@/lib/oauth/providers";

export const POST = api(oauthRoutes.bulkCancel, async ({ ctx, params }) =>
  cancelBulkJob(ctx, requireProvider(params.provider), params.jobId),
);
