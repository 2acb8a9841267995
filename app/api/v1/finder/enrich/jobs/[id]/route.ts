import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { getEnrichJob } from "@/lib/finder/enrich-jobs";

export const GET = api(finderRoutes.enrichJob, async ({ ctx, params }) => getEnrichJob(ctx, params.id));
