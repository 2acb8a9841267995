import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { envelope } from "@/lib/paging";
import { listReplies } from "@/lib/inbox/read";

export const GET = api(r.list, async ({ ctx, query }) => {
  const { rows, total } = await listReplies(ctx, query);
  return envelope("replies", rows, total, query);
});
