import { api } from "@/lib/api/handler";
import { copyFatigueRoutes as r } from "@/lib/api/contracts/copy-fatigue";
import { getCopyFatigue } from "@/lib/copy-fatigue/view";

export const GET = api(r.list, async ({ ctx, params }) => getCopyFatigue(ctx, params.id));
