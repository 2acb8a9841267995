import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { securitySettings, updateSecuritySettings } from "@/lib/auth/security-settings";

export const GET = api(securityRoutes.getSecuritySettings, async ({ ctx }) => securitySettings(ctx));
export const PUT = api(securityRoutes.putSecuritySettings, async ({ ctx, body }) => updateSecuritySettings(ctx, body));
