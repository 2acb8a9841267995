import { api } from "@/lib/api/handler";
import { campaignRoutes as r } from "@/lib/api/contracts/campaigns";
import { addAttachment, listAttachments } from "@/lib/campaigns/attachments";

export const GET = api(r.listAttachments, async ({ ctx, params }) => listAttachments(ctx, params.id, params.stepId));
export const POST = api(r.addAttachment, async ({ ctx, params, body }) =>
  Response.json(await addAttachment(ctx, params.id, params.stepId, body), { status: 201 }),
);
