import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { forwardReply } from "@/lib/inbox/send-reply";

export const POST = api(r.forward, async ({ ctx, params, body }) => forwardReply(ctx, params.id, body));
