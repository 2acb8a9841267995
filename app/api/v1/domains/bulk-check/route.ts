import { api } from "@/lib/api/handler";
import { domainRoutes } from "@/lib/api/contracts/mailboxes";
import { bulkCheckDomains } from "@/lib/domains/domains";

export const POST = api(domainRoutes.bulkCheck, async ({ ctx, body }) => bulkCheckDomains(ctx, body.domainIds));
