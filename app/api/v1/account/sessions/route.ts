import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { mySessions } from "@/lib/auth/account-sessions";

export const GET = api(securityRoutes.listSessions, async ({ ctx }) => mySessions(ctx));
