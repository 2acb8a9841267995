import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { getBlacklistJob } from "@/lib/deliverability/blacklist";

export const GET = api(deliverabilityRoutes.blacklistJob, async ({ ctx, params }) => getBlacklistJob(ctx, params.jobId));
