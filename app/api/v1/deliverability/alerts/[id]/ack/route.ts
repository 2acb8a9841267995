import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { acknowledgeAlert } from "@/lib/deliverability/alerts-list";

export const POST = api(deliverabilityRoutes.ack, async ({ ctx, params }) => acknowledgeAlert(ctx, params.id));
