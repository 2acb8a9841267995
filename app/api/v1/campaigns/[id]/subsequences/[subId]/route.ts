import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { deleteSubsequence, patchSubsequence } from "@/lib/campaigns/subsequences";

export const PATCH = api(r.patchSubsequence, async ({ ctx, params, body }) => patchSubsequence(ctx, params.id, params.subId, body));
export const DELETE = api(r.deleteSubsequence, async ({ ctx, params }) => deleteSubsequence(ctx, params.id, params.subId));
