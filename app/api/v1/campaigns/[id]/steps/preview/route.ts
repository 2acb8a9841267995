import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { previewStep } from "@/lib/campaigns/preview";

export const POST = api(r.preview, async ({ ctx, params, body }) => previewStep(ctx, params.id, body));
