import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { updateProfile } from "@/lib/auth/profile";

export const PATCH = api(memberRoutes.updateProfile, async ({ ctx, body }) => updateProfile(ctx, body));
