import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { endMyOtherSessions } from "@/lib/auth/account-sessions";

export const POST = api(securityRoutes.endOtherSessions, async ({ ctx }) => endMyOtherSessions(ctx));
