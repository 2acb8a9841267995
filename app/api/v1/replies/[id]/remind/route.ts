import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { remindReply } from "@/lib/inbox/read";

export const PATCH = api(r.remind, async ({ ctx, params, body }) => remindReply(ctx, params.id, body.remindAt));
