import { memberRoutes } from "@/lib/api/contracts/members";
import { publicApi } from "@/lib/api/public";
import { confirmEmailChange } from "@/lib/auth/profile";

export const POST = publicApi(memberRoutes.confirmEmail, async ({ ctx, params }) => confirmEmailChange(ctx, params.token));
