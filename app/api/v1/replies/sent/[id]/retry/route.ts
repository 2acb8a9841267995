import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { retryReply } from "@/lib/inbox/send-reply";

export const POST = api(r.retry, async ({ ctx, params }) => Response.json(await retryReply(ctx, params.id), { status: 202 }));
