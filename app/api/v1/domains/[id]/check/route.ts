import { api } from "@/lib/api/handler";
import { domainRoutes } from "@/lib/api/contracts/mailboxes";
import { checkDomain } from "@/lib/domains/domains";

export const POST = api(domainRoutes.check, async ({ ctx, params }) => checkDomain(ctx, params.id));
