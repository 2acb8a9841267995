import { api } from "@/lib/api/handler";
import { onboardingRoutes } from "@/lib/api/contracts/onboarding";
import { setOnboardingDismissed } from "@/lib/onboarding/onboarding";

export const POST = api(onboardingRoutes.dismiss, async ({ ctx }) => setOnboardingDismissed(ctx, true));
export const DELETE = api(onboardingRoutes.undismiss, async ({ ctx }) => setOnboardingDismissed(ctx, false));
