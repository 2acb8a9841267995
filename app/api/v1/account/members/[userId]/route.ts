import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { changeMemberRole, removeMember } from "@/lib/auth/members";

export const PATCH = api(memberRoutes.changeRole, async ({ ctx, body, params }) => changeMemberRole(ctx, params.userId, body.role));
export const DELETE = api(memberRoutes.removeMember, async ({ ctx, params }) => removeMember(ctx, params.userId));
