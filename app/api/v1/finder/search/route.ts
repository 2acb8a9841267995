import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { searchPeople } from "@/lib/finder/search";

export const POST = api(finderRoutes.search, async ({ ctx, body }) => searchPeople(ctx, body));
