import { api } from "@/lib/api/handler";
import { plainPage } from "@/lib/api/paging";
import { domainRoutes } from "@/lib/api/contracts/mailboxes";
import { listDomains } from "@/lib/domains/domains";

export const GET = api(domainRoutes.list, async ({ ctx, query }) => {
  const { rows, total } = await listDomains(ctx, query);
  return plainPage(rows, total, query);
});
