import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { downloadAttachment } from "@/lib/inbox/files";

export const GET = api(r.attachment, async ({ ctx, params }) => downloadAttachment(ctx, params.id));
