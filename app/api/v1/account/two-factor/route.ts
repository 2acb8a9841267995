import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { disableTwoFactor, twoFactorStatus } from "@/lib/auth/two-factor";

export const GET = api(securityRoutes.twoFactorStatus, async ({ ctx }) => twoFactorStatus(ctx));
export const DELETE = api(securityRoutes.twoFactorDisable, async ({ ctx, body }) => disableTwoFactor(ctx, body.code));
