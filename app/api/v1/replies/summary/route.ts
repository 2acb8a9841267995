import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { summary } from "@/lib/inbox/read";

export const GET = api(r.summary, async ({ ctx }) => summary(ctx));
