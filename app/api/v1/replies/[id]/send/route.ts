import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { sendReply } from "@/lib/inbox/send-reply";

export const POST = api(r.send, async ({ ctx, params, body }) => {
  const out = await sendReply(ctx, params.id, body);
  return Response.json(out.body, { status: out.status });
});
