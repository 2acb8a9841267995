import { api } from "@/lib/api/handler";
import { agentRoutes as r } from "@/lib/api/contracts/reply-agents";
import { getScan, startScan } from "@/lib/reply-agents/website";

export const POST = api(r.scan, async ({ ctx, params, body }) => startScan(ctx, params.id, body));
export const GET = api(r.scanProgress, async ({ ctx, params }) => getScan(ctx, params.id));
