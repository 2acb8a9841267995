import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { listAlerts } from "@/lib/deliverability/alerts-list";

export const GET = api(deliverabilityRoutes.alerts, async ({ ctx, query }) => listAlerts(ctx, query));
