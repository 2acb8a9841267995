import { api } from "@/lib/api/handler";
import { domainRoutes } from "@/lib/api/contracts/mailboxes";
import { deleteDomain, getDomain, patchDomain } from "@/lib/domains/domains";

export const GET = api(domainRoutes.get, async ({ ctx, params }) => getDomain(ctx, params.id));
export const PATCH = api(domainRoutes.patch, async ({ ctx, params, body }) => patchDomain(ctx, params.id, body));
export const DELETE = api(domainRoutes.delete, async ({ ctx, params }) => deleteDomain(ctx, params.id));
