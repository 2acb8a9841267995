import { memberRoutes } from "@/lib/api/contracts/members";
import { publicApi } from "@/lib/api/public";
import { requestPasswordReset } from "@/lib/auth/profile";

export const POST = publicApi(memberRoutes.requestPasswordReset, async ({ ctx, body }) =>
  Response.json(await requestPasswordReset(ctx, body.email), { status: 202 }),
);
