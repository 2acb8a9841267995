import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { testSendStep } from "@/lib/campaigns/preview";

export const POST = api(r.testSendStep, async ({ ctx, params, body }) => testSendStep(ctx, params.id, params.stepId, body));
