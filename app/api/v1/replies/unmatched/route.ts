import { api } from "@/lib/api/handler";
import { envelope } from "@/lib/paging";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { listUnmatched } from "@/lib/inbox/read";

export const GET = api(r.unmatched, async ({ ctx, query }) => {
  const { rows, total } = await listUnmatched(ctx, query);
  return envelope("replies", rows, total, query);
});
