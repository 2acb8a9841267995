import { api } from "@/lib/api/handler";
import { plainPage } from "@/lib/api/paging";
import { crmRoutes as r } from "@/lib/api/contracts/ai-crm";
import { pipeline } from "@/lib/inbox/crm";

export const GET = api(r.pipeline, async ({ ctx, query }) => {
  const { rows, total } = await pipeline(ctx, query);
  return plainPage(rows, total, query);
});
