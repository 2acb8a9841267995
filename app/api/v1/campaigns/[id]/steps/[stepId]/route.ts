import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { deleteStep, patchStep } from "@/lib/campaigns/steps";

export const PATCH = api(r.patchStep, async ({ ctx, params, body }) => patchStep(ctx, params.id, params.stepId, body));
export const DELETE = api(r.deleteStep, async ({ ctx, params }) => deleteStep(ctx, params.id, params.stepId));
