import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { starReply } from "@/lib/inbox/read";

export const PATCH = api(r.star, async ({ ctx, params, body }) => starReply(ctx, params.id, body.starred));
