import { api } from "@/lib/api/handler";
import { envelope } from "@/lib/paging";
import { suppressionRoutes } from "@/lib/api/contracts/workspace";
import { addSuppressions, listSuppressions } from "@/lib/suppressions/suppressions";

export const GET = api(suppressionRoutes.list, async ({ ctx, query }) => {
  const { rows, total } = await listSuppressions(ctx, query);
  return envelope("suppressions", rows, total, query);
});
export const POST = api(suppressionRoutes.add, async ({ ctx, body }) => addSuppressions(ctx, body));
