import { api } from "@/lib/api/handler";
import { mailboxRoutes } from "@/lib/api/contracts/mailboxes";
import { connectByEmail } from "@/lib/mailboxes/connect";

export const PUT = api(mailboxRoutes.connect, async ({ ctx, params, body }) => {
  const { mailbox, created } = await connectByEmail(ctx, params.email, body);
  return Response.json(mailbox, { status: created ? 201 : 200 });
});
