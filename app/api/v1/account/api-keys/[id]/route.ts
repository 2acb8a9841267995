import { api } from "@/lib/api/handler";
import { accountRoutes } from "@/lib/api/contracts/account";
import { revokeApiKey } from "@/lib/auth/api-keys";

export const DELETE = api(accountRoutes.revokeKey, async ({ ctx, params }) => revokeApiKey(ctx, params.id));
