import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { createSubsequence, listSubsequences } from "@/lib/campaigns/subsequences";

export const GET = api(r.listSubsequences, async ({ ctx, params }) => listSubsequences(ctx, params.id));
export const POST = api(r.createSubsequence, async ({ ctx, params, body }) =>
  Response.json(await createSubsequence(ctx, params.id, body), { status: 201 }),
);
