import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { listBlacklistResults } from "@/lib/deliverability/blacklist";

export const GET = api(deliverabilityRoutes.blacklistResults, async ({ ctx, params, query }) =>
  listBlacklistResults(ctx, params.jobId, query),
);
