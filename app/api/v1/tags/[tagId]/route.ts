import { api } from "@/lib/api/handler";
import { tagRoutes } from "@/lib/api/contracts/workspace";
import { updateTag } from "@/lib/tags/manage";
import { deleteTag } from "@/lib/tags/tags";

export const PATCH = api(tagRoutes.update, async ({ ctx, params, body }) => updateTag(ctx, params.tagId, body));
export const DELETE = api(tagRoutes.delete, async ({ ctx, params }) => deleteTag(ctx, params.tagId));
