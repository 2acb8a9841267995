import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { mailboxReport } from "@/lib/deliverability/mailbox-report";

export const GET = api(deliverabilityRoutes.mailbox, async ({ ctx, params }) => mailboxReport(ctx, params.id));
