import { api } from "@/lib/api/handler";
import { copyFatigueRoutes as r } from "@/lib/api/contracts/copy-fatigue";
import { scanCopyFatigue } from "@/lib/copy-fatigue/view";

export const POST = api(r.scan, async ({ ctx, params }) => scanCopyFatigue(ctx, params.id));
