import { api } from "@/lib/api/handler";
import { oauthRoutes } from "@/lib/api/contracts/oauth";
import { getBulkJob } from "@/lib/mailboxes/oauth-bulk";
import { requireProvider } from "@/lib/oauth/providers";

export const GET = api(oauthRoutes.bulkJob, async ({ ctx, params }) => getBulkJob(ctx, requireProvider(params.provider), params.jobId));
