import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { getThread } from "@/lib/inbox/thread";

export const GET = api(r.thread, async ({ ctx, params }) => getThread(ctx, params.leadId));
