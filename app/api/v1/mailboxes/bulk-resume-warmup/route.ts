import { api } from "@/lib/api/handler";
import { warmupRoutes } from "@/lib/api/contracts/warmup";
import { bulkResumeWarmup } from "@/lib/warmup/manage";

export const POST = api(warmupRoutes.bulkResume, async ({ ctx, body }) => bulkResumeWarmup(ctx, body.mailboxIds));
