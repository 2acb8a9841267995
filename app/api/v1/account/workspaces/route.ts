import { api } from "@/lib/api/handler";
import { memberRoutes } from "@/lib/api/contracts/members";
import { createWorkspace } from "@/lib/auth/profile";

export const POST = api(memberRoutes.createWorkspace, async ({ ctx, body }) =>
  Response.json(await createWorkspace(ctx, body.name), { status: 201 }),
);
