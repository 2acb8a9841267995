import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { deletePreview } from "@/lib/campaigns/campaigns";

export const GET = api(r.deletePreview, async ({ ctx, params }) => deletePreview(ctx, params.id));
