import { api } from "@/lib/api/handler";
import { onboardingRoutes } from "@/lib/api/contracts/onboarding";
import { getOnboarding } from "@/lib/onboarding/onboarding";

export const GET = api(onboardingRoutes.get, async ({ ctx }) => getOnboarding(ctx));
