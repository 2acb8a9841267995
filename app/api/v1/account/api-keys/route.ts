import { api } from "@/lib/api/handler";
import { accountRoutes } from "@/lib/api/contracts/account";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";

export const GET = api(accountRoutes.listKeys, async ({ ctx }) => ({ apiKeys: await listApiKeys(ctx) }));
export const POST = api(accountRoutes.createKey, async ({ ctx, body }) =>
  Response.json(
    await createApiKey(ctx, { name: body.name, scope: body.scope, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null }),
    { status: 201 },
  ),
);
