import { api } from "@/lib/api/handler";
import { envelope } from "@/lib/paging";
import { crmRoutes as r } from "@/lib/api/contracts/ai-crm";
import { listReplies } from "@/lib/inbox/read";

export const GET = api(r.replies, async ({ ctx, query }) => {
  const { rows, total } = await listReplies(ctx, query);
  return envelope("replies", rows, total, query);
});
