import { api } from "@/lib/api/handler";
import { trackingDomainRoutes as r } from "@/lib/api/contracts/tracking-domains";
import { addTrackingDomain, listTrackingDomains } from "@/lib/domains/tracking-domains";

export const GET = api(r.list, async ({ ctx }) => listTrackingDomains(ctx));
export const POST = api(r.create, async ({ ctx, body }) => addTrackingDomain(ctx, body));
