import { api } from "@/lib/api/handler";
import { securityRoutes } from "@/lib/api/contracts/security";
import { setupTwoFactor } from "@/lib/auth/two-factor";

export const POST = api(securityRoutes.twoFactorSetup, async ({ ctx }) => setupTwoFactor(ctx));
