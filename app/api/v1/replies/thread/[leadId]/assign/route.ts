import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { assignThread } from "@/lib/inbox/assign";

export const PATCH = api(r.assign, async ({ ctx, params, body }) => assignThread(ctx, params.leadId, body.userId));
