import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { analyticsMailboxes } from "@/lib/deliverability/analytics-mailboxes";

export const GET = api(deliverabilityRoutes.analyticsMailboxes, async ({ ctx }) => analyticsMailboxes(ctx));
