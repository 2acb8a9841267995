import { api } from "@/lib/api/handler";
import { trackingDomainRoutes as r } from "@/lib/api/contracts/tracking-domains";
import { verifyTrackingDomain } from "@/lib/domains/tracking-domains";

export const POST = api(r.verify, async ({ ctx, params }) => verifyTrackingDomain(ctx, params.id));
