import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { removeOneFromPool } from "@/lib/campaigns/pool";

export const DELETE = api(r.removePoolOne, async ({ ctx, params }) => removeOneFromPool(ctx, params.id, params.mailboxId));
