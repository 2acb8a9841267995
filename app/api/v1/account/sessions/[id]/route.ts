import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { endMySession } from "@/lib/auth/account-sessions";

export const DELETE = api(securityRoutes.endSession, async ({ ctx, params }) => endMySession(ctx, params.id));
