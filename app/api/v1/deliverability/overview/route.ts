import { api } from "@/lib/api/handler";
import { deliverabilityRoutes } from "@/lib/api/contracts/deliverability";
import { deliverabilityOverview } from "@/lib/deliverability/overview";

export const GET = api(deliverabilityRoutes.overview, async ({ ctx }) => deliverabilityOverview(ctx));
