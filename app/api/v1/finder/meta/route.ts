import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { finderMeta } from "@/lib/finder/meta";

export const GET = api(finderRoutes.meta, async ({ ctx }) => finderMeta(ctx));
