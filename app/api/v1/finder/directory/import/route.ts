import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { importDirectory } from "@/lib/finder/directory-import";

export const POST = api(finderRoutes.import, async ({ ctx, body }) => importDirectory(ctx, body));
