import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { variablesCheck } from "@/lib/campaigns/preview";

export const GET = api(r.variablesCheck, async ({ ctx, params }) => variablesCheck(ctx, params.id));
