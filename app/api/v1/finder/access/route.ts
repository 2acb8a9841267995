import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { finderAccess } from "@/lib/finder/meta";

export const GET = api(finderRoutes.access, async ({ ctx }) => finderAccess(ctx));
