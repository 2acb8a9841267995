import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { unreadCount } from "@/lib/inbox/read";

export const GET = api(r.unread, async ({ ctx }) => unreadCount(ctx));
