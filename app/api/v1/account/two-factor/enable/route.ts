import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { enableTwoFactor } from "@/lib/auth/two-factor";

export const POST = api(securityRoutes.twoFactorEnable, async ({ ctx, body }) => enableTwoFactor(ctx, body.code));
