import { memberRoutes } from "@/lib/api/contracts/members";
import { sessionUserId } from "@/lib/api/request-credentials";
import { requireSameOrigin } from "@/lib/api/origin";
import { publicApi } from "@/lib/api/public";
import { acceptInvitation } from "@/lib/auth/invitations";

export const POST = publicApi(memberRoutes.acceptInvitation, async ({ ctx, req, body, params }) => {
  const signedInUserId = await sessionUserId(req);
  // Joining as the signed-in user rides on the browser's cookie: only from the dashboard's own pages.
  if (signedInUserId) requireSameOrigin(req);
  return acceptInvitation(ctx, { token: params.token, signedInUserId, name: body.name, password: body.password });
});
