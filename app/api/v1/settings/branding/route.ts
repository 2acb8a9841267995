import { api } from "@/lib/api/handler";
import { analyticsRoutes as r } from "@/lib/api/contracts/analytics";
import { getBranding, putBranding } from "@/lib/analytics/branding";

export const GET = api(r.getBranding, async ({ ctx }) => ({ branding: await getBranding(ctx) }));
export const PUT = api(r.putBranding, async ({ ctx, body }) => putBranding(ctx, body));
