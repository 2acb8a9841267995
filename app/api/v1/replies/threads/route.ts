import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { envelope } from "@/lib/paging";
import { listThreads } from "@/lib/inbox/read";

export const GET = api(r.threads, async ({ ctx, query }) => {
  const { rows, total } = await listThreads(ctx, query);
  return envelope("threads", rows, total, query);
});
