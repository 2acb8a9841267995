import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { getPerson } from "@/lib/finder/search";

export const GET = api(finderRoutes.person, async ({ ctx, params }) => getPerson(ctx, params.id));
