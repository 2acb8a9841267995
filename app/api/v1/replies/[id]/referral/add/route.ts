import { api } from "@/lib/api/handler";
import { inboxRoutes as r } from "@/lib/api/contracts/inbox";
import { addReferralLead } from "@/lib/inbox/referral-add";

export const POST = api(r.referralAdd, async ({ ctx, params, body }) => addReferralLead(ctx, params.id, body ?? {}));
