import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { sendReply } from "@/lib/inbox/send-reply";

/** 202 when the reply is queued for the background job, 200 once the mail server accepted it. */
export const POST = api(r.send, async ({ ctx, params, body }) => {
  const out = await sendReply(ctx, params.id, body);
  return Response.json(out, { status: "queued" in out ? 202 : 200 });
});
