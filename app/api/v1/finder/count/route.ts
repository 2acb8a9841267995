import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { countPeople } from "@/lib/finder/search";

export const POST = api(finderRoutes.count, async ({ ctx, body }) => countPeople(ctx, body.filters));
