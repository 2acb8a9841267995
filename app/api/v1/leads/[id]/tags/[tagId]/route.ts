import { api } from "@/lib/api/handler";
import { leadRoutes } from "@/lib/api/contracts/leads";
import { detachTagFromLead } from "@/lib/tags/tags";

export const DELETE = api(leadRoutes.detachTag, async ({ ctx, params }) => detachTagFromLead(ctx, params.id, params.tagId));
