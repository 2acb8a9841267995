import { memberRoutes } from "@/lib/api/contracts/members";
import { publicApi } from "@/lib/api/public";
import { resetPassword } from "@/lib/auth/profile";

export const POST = publicApi(memberRoutes.resetPassword, async ({ ctx, body, params }) => resetPassword(ctx, params.token, body.password));
