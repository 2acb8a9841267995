import { api } from "@/lib/api/handler";
import { suppressionRoutes } from "@/lib/api/contracts/workspace";
import { bulkAddSuppressions } from "@/lib/suppressions/bulk";

export const POST = api(suppressionRoutes.bulk, async ({ ctx, body }) => bulkAddSuppressions(ctx, body));
