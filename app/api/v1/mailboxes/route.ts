import { api } from "@/lib/api/handler";
import { plainPage } from "@/lib/api/paging";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { listMailboxes } from "@/lib/mailboxes/manage";

export const GET = api(mailboxRoutes.list, async ({ ctx, query }) => {
  const { rows, total } = await listMailboxes(ctx, query);
  return plainPage(rows, total, query);
});
