import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { createStep, listSteps, replaceSteps } from "@/lib/campaigns/steps";

export const GET = api(r.listSteps, async ({ ctx, params, query }) => listSteps(ctx, params.id, query.subsequenceId));
export const POST = api(r.createStep, async ({ ctx, params, body }) =>
  Response.json(await createStep(ctx, params.id, body), { status: 201 }),
);
export const PUT = api(r.putSteps, async ({ ctx, params, body }) => replaceSteps(ctx, params.id, body));
