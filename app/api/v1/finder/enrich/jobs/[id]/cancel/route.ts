import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { cancelEnrichJob } from "@/lib/finder/enrich-jobs";

export const POST = api(finderRoutes.enrichCancel, async ({ ctx, params }) => cancelEnrichJob(ctx, params.id));
