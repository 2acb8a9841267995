import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { renameWorkspace } from "@/lib/auth/profile";

export const PATCH = api(memberRoutes.renameWorkspace, async ({ ctx, body }) => renameWorkspace(ctx, body.name));
