import { api } from "@/lib/api/handler";
import { copyFatigueRoutes as r } from "@/lib/api/contracts/copy-fatigue";
import { dismissCopyFatigue } from "@/lib/copy-fatigue/view";

export const POST = api(r.dismiss, async ({ ctx, params }) => dismissCopyFatigue(ctx, params.id, params.stepId));
