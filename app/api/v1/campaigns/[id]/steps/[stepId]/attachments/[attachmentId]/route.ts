import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { deleteAttachment } from "@/lib/campaigns/attachments";

export const DELETE = api(r.deleteAttachment, async ({ ctx, params }) =>
  deleteAttachment(ctx, params.id, params.stepId, params.attachmentId),
);
