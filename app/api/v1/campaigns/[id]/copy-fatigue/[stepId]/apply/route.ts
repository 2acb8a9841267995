import { api } from "@/lib/api/handler";
import { copyFatigueRoutes as r } from "@/lib/api/contracts/copy-fatigue";
import { applyCopyFatigue } from "@/lib/copy-fatigue/view";

export const POST = api(r.apply, async ({ ctx, params }) => applyCopyFatigue(ctx, params.id, params.stepId));
