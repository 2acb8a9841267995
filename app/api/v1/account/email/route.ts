import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { requestEmailChange } from "@/lib/auth/profile";

export const POST = api(memberRoutes.changeEmail, async ({ ctx, body }) => requestEmailChange(ctx, body));
