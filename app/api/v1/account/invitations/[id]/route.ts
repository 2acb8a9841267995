import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { revokeInvitation } from "@/lib/auth/invitations";

export const DELETE = api(memberRoutes.revokeInvitation, async ({ ctx, params }) => revokeInvitation(ctx, params.id));
