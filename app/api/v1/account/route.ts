import { api } from "@/lib/api/handler";
import { accountRoutes } from "@/lib/api/contracts/account";
import { describeAccount } from "@/lib/auth/account";

export const GET = api(accountRoutes.me, async ({ ctx }) => describeAccount(ctx));
