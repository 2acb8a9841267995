import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { createInvitation, listInvitations } from "@/lib/auth/invitations";

export const GET = api(memberRoutes.listInvitations, async ({ ctx }) => ({ invitations: await listInvitations(ctx) }));
export const POST = api(memberRoutes.createInvitation, async ({ ctx, body }) =>
  Response.json(await createInvitation(ctx, body), { status: 201 }),
);
