import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { markThreadRead } from "@/lib/inbox/read";

export const POST = api(r.read, async ({ ctx, params }) => markThreadRead(ctx, params.leadId));
