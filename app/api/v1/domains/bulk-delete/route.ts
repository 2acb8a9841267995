import { api } from "@/lib/api/handler";
import { domainRoutes } from "@/lib/api/contracts/mailboxes";
import { bulkDeleteDomains } from "@/lib/domains/domains";

export const POST = api(domainRoutes.bulkDelete, async ({ ctx, body }) => bulkDeleteDomains(ctx, body.domainIds));
