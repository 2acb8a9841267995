import { api } from "@/lib/api/handler";
import { trackingDomainRoutes as r } from "@/lib/api/contracts/tracking-domains";
import { deleteTrackingDomain, patchTrackingDomain } from "@/lib/domains/tracking-domains";

export const PATCH = api(r.patch, async ({ ctx, body, params }) => patchTrackingDomain(ctx, params.id, body));
export const DELETE = api(r.delete, async ({ ctx, params }) => deleteTrackingDomain(ctx, params.id));
