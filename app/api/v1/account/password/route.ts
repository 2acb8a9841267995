import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { changePassword } from "@/lib/auth/profile";

export const POST = api(memberRoutes.changePassword, async ({ ctx, body }) => changePassword(ctx, body));
