import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { listMembers } from "@/lib/auth/members";

export const GET = api(memberRoutes.listMembers, async ({ ctx }) => ({ members: await listMembers(ctx) }));
